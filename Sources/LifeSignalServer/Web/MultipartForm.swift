import Foundation

/// A `multipart/form-data` body (RFC 7578), as browsers send a form with a file field.
/// Text fields become strings; file fields keep their bytes. Only what a form sends is
/// understood: one level, `Content-Disposition: form-data; name="…"[; filename="…"]`.
struct MultipartForm: Equatable {
    var fields: [String: String] = [:]
    var files: [String: [UInt8]] = [:]

    /// The boundary of a `multipart/form-data` content type, or nil for any other type.
    static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() where part.lowercased().hasPrefix("boundary=") {
            let value = part.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty || value.count > 70 ? nil : value
        }
        return nil
    }

    /// Parses `body`; nil when it is not a well-formed multipart body for `boundary`.
    init?(body: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        var index = 0
        guard let first = Self.find(delimiter, in: body, from: 0) else { return nil }
        index = first + delimiter.count
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body.count >= index + 2, body[index] == UInt8(ascii: "-"), body[index + 1] == UInt8(ascii: "-") { return }
            guard body.count >= index + 2, body[index] == 13, body[index + 1] == 10 else { return nil }
            index += 2
            guard let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: index) else { return nil }
            let headers = String(decoding: body[index..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = Self.find(Array("\r\n".utf8) + delimiter, in: body, from: contentStart) else { return nil }
            let content = Array(body[contentStart..<next])
            index = next + 2 + delimiter.count
            guard let disposition = Self.disposition(headers), let name = disposition["name"] else { continue }
            if disposition["filename"] != nil {
                if !content.isEmpty { files[name] = content }
            } else {
                fields[name] = String(decoding: content, as: UTF8.self)
            }
        }
    }

    private static func disposition(_ headers: String) -> [String: String]? {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "content-disposition" else { continue }
            var values: [String: String] = [:]
            for item in pair[1].split(separator: ";").dropFirst() {
                let kv = item.split(separator: "=", maxSplits: 1)
                guard kv.count == 2 else { continue }
                values[kv[0].trimmingCharacters(in: .whitespaces).lowercased()] =
                    kv[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            return values
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var i = start
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0] {
                var j = 1
                while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
