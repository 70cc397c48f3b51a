import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The system's secure random bytes, fetched 4 KiB at a time.
///
/// `SystemRandomNumberGenerator` makes one `getrandom` system call per 8 bytes; a burst of
/// escalations makes tens of thousands of identifiers, so the pool reads `/dev/urandom` (the
/// same kernel CSPRNG) once per 256 identifiers instead. Every byte is handed out once.
struct SecureRandomPool: RandomNumberGenerator, Sendable {
    private static let pool = Mutex(Pool())

    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var next = 4096

        mutating func take() -> UInt64 {
            if next + 8 > bytes.count {
                Self.fill(&bytes)
                next = 0
            }
            var value: UInt64 = 0
            for offset in 0..<8 { value = value << 8 | UInt64(bytes[next + offset]) }
            next += 8
            return value
        }

        static func fill(_ bytes: inout [UInt8]) {
            #if canImport(Glibc)
                let count = bytes.count
                var filled = 0
                let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
                if fd >= 0 {
                    defer { close(fd) }
                    bytes.withUnsafeMutableBytes { buffer in
                        while filled < count {
                            let got = read(fd, buffer.baseAddress! + filled, count - filled)
                            if got > 0 { filled += got } else if got == 0 || errno != EINTR { break }
                        }
                    }
                }
                if filled == count { return }
            #endif
            var system = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &system) }
        }
    }

    mutating func next() -> UInt64 { Self.pool.withLock { $0.take() } }
}
