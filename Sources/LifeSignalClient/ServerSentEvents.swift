import Foundation

/// One Server-Sent Event: its `event:` name (default `message`) and its `data:` lines
/// joined by newlines.
public struct ServerSentEvent: Hashable, Sendable {
    public var name: String
    public var data: String

    public init(name: String = "message", data: String) {
        self.name = name
        self.data = data
    }
}

/// Turns the bytes of a `text/event-stream` into events, however they are split into chunks
/// (the WHATWG rules: lines end in LF, CR or CRLF; a blank line dispatches; `:` starts a comment).
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var name = ""
    private var dataLines: [String] = []

    public init() {}

    /// Feeds a chunk and returns the events it completed.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A, 0x0D:
                lastWasCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            // A blank line dispatches the event gathered so far, if it has data.
            defer {
                name = ""
                dataLines = []
            }
            guard !dataLines.isEmpty else { return nil }
            return ServerSentEvent(name: name.isEmpty ? "message" : name, data: dataLines.joined(separator: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data": dataLines.append(String(value))
        default: break  // `id` and `retry` are not used: the stream starts with a fresh status.
        }
        return nil
    }
}
