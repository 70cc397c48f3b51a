import NIOCore

/// Splits the server's byte stream into reply lines, without their CRLF.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String

    /// RFC 5321 caps a reply line at 512 octets; anything far beyond that is not SMTP.
    static let maximumLineLength = 8192

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maximumLineLength { throw SMTPError.protocolViolation("reply line too long") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        var line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        if line.hasSuffix("\r") { line.removeLast() }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
