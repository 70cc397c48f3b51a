import CQREncode

/// The contact QR code as an SVG image, rendered on the server with libqrencode.
enum QRCodeSVG {
    static func svg(for text: String, title: String = "QR code") -> String? {
        guard let qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(qr) }
        let width = Int(qr.pointee.width)
        let quiet = 4
        let size = width + quiet * 2
        var path = ""
        for y in 0..<width {
            for x in 0..<width where qr.pointee.data[y * width + x] & 1 == 1 {
                path += "M\(x + quiet) \(y + quiet)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" shape-rendering="crispEdges" role="img"><title>\(title)</title>\
            <rect width="\(size)" height="\(size)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
