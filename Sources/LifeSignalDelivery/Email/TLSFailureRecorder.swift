import NIOCore
import NIOSSL
import Synchronization

/// Remembers an error raised while TLS is being set up (before any decrypted byte arrives),
/// so a refused certificate is reported as such rather than as a dropped connection.
final class TLSFailureRecorder: Sendable {
    private let state = Mutex<(established: Bool, error: String?)>((false, nil))

    /// The TLS error, if setting up TLS failed.
    var failure: String? { state.withLock { $0.error } }

    fileprivate func established() { state.withLock { $0.established = true } }

    fileprivate func record(_ error: any Error) {
        state.withLock { state in
            if !state.established, state.error == nil { state.error = String(describing: error) }
        }
    }

    /// The handler that feeds this recorder; it goes right behind the TLS handler.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        private let recorder: TLSFailureRecorder

        init(_ recorder: TLSFailureRecorder) { self.recorder = recorder }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            recorder.established()
            context.fireChannelRead(data)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            recorder.record(error)
            context.fireErrorCaught(error)
        }
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// Puts a TLS client first in the pipeline, with `recorder` watching its handshake.
    func addTLSClient(context: NIOSSLContext, serverHostname: String?, recorder: TLSFailureRecorder) throws {
        let handler = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
        try addHandler(handler, position: .first)
        try addHandler(TLSFailureRecorder.Handler(recorder), position: .after(handler))
    }
}
