import Foundation
import LifeSignalTestSupport
import Synchronization

/// What a child process writes to a pipe, read as it is written on a thread of its own
/// (blocking reads on the cooperative pool would starve the server under test), split into
/// lines, and — when `tee` is given — appended to that file as it arrives.
final class ChildOutput: Sendable {
    private struct State {
        var lines: [String] = []
        var partial = Data()
        var data = Data()
        var ended = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    init(_ pipe: Pipe, tee: URL? = nil) throws {
        let handle = pipe.fileHandleForReading
        var file: FileHandle?
        if let tee {
            guard FileManager.default.createFile(atPath: tee.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: tee.path])
            }
            file = try FileHandle(forWritingTo: tee)
        }
        let output = file
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData  // blocks until something is written; empty at the end
                if chunk.isEmpty { break }
                try? output?.write(contentsOf: chunk)
                append(chunk)
            }
            try? output?.close()
            finish()
        }
    }

    private func append(_ chunk: Data) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.data.append(chunk)
            state.partial.append(chunk)
            while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                state.lines.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
                state.partial.removeSubrange(state.partial.startIndex...newline)
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    private func finish() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if !state.partial.isEmpty {
                state.lines.append(String(decoding: state.partial, as: UTF8.self))
                state.partial.removeAll()
            }
            state.ended = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// The whole lines after the first `count`, once there are some (at once if there are);
    /// nil when the output has ended without more, or the waiting task is cancelled.
    func lines(after count: Int) async -> ArraySlice<String>? {
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        while true {
            let now = state.withLock { state -> ArraySlice<String>?? in
                if state.lines.count > count { return .some(state.lines[count...]) }
                if state.ended || Task.isCancelled { return .some(nil) }
                return nil
            }
            if let now { return now }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resume = state.withLock { state -> Bool in
                        if state.lines.count > count || state.ended || Task.isCancelled { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if resume { continuation.resume() }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }

    /// Waits for the first line from `start` on that `matches`; returns its index, or nil when
    /// the output ended (the process exited) before one.
    func firstLine(from start: Int = 0, where matches: (String) -> Bool) async -> Int? {
        var seen = start
        while let lines = await lines(after: seen) {
            if let index = lines.firstIndex(where: matches) { return index }
            seen = lines.endIndex
        }
        return nil
    }

    /// Everything written, once the writer closed its end (it exited).
    func ended() async -> String {
        var seen = 0
        while let lines = await lines(after: seen) { seen = lines.endIndex }
        return state.withLock { String(decoding: $0.data, as: UTF8.self) }
    }
}

/// The line Hummingbird logs (at info level and below) once `lifesignal serve` listens.
func isListeningLine(_ line: String) -> Bool { line.contains("Server started and listening on") }
