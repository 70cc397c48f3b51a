import Foundation
import LifeSignalTestSupport

/// A real SMTP server for the tests: Python's aiosmtpd on 127.0.0.1, writing each message it
/// accepts to a JSON file (headers parsed by Python's `email` package, so the test checks what a
/// real mail client would see).
final class SMTPSink {
    enum Mode: String { case plain, starttls, tls }

    struct Received: Decodable {
        var mail_from: String
        var rcpt_tos: [String]
        var authenticated: Bool
        var tls: Bool
        var raw: String
        var from: String?
        var to: String?
        var subject: String?
        var date: String?
        var message_id: String?
        var content_type: String?
        var charset: String?
        var transfer_encoding: String?
        var body: String?
    }

    let port: Int
    let directory: URL
    private let process: Process
    private let exited: DispatchSemaphore

    private let stdin: Pipe

    /// Starts the sink; fails (never skips) when Python or aiosmtpd is missing.
    static func start(
        mode: Mode, username: String? = nil, password: String? = nil, certificate: SelfSignedCertificate? = nil
    ) async throws -> SMTPSink {
        let python = try await TestPython.importing("aiosmtpd")
        let directory = try makeTemporaryDirectory()
        let script = directory.appendingPathComponent("sink.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            script.path, directory.path, mode.rawValue, certificate?.certificatePath ?? "", certificate?.keyPath ?? "",
            username ?? "", password ?? "",
        ]
        let logPath = directory.appendingPathComponent("sink.log").path
        guard FileManager.default.createFile(atPath: logPath, contents: nil),
            let log = FileHandle(forWritingAtPath: logPath)
        else { throw FakeServerError("cannot create \(logPath)") }
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = log
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()

        // The sink prints its port once it listens: the first line it writes.
        let line = try? await withFailureDeadline(seconds: 30, "the aiosmtpd sink did not say its port") {
            try await firstLine(of: stdout, process: process)
        }
        if let line = line ?? nil, let port = Int(line) {
            return SMTPSink(port: port, directory: directory, process: process, exited: exited, stdin: stdin)
        }
        kill(process.processIdentifier, SIGKILL)
        _ = try? await onOwnThread { exited.wait() }
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        throw FakeServerError("the aiosmtpd sink did not start:\n\(output)")
    }

    /// The first line `process` writes to `pipe` (nil when it closes the pipe first), read on a
    /// thread of its own. When the waiting task is cancelled the process is killed, which ends
    /// the read.
    private static func firstLine(of pipe: Pipe, process: Process) async throws -> String? {
        let handle = pipe.fileHandleForReading
        let line = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                Thread.detachNewThread {
                    var data = Data()
                    while !data.contains(UInt8(ascii: "\n")) {
                        let chunk = handle.availableData
                        if chunk.isEmpty { break }
                        data.append(chunk)
                    }
                    guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return continuation.resume(returning: nil) }
                    continuation.resume(returning: String(decoding: data[..<newline], as: UTF8.self))
                }
            }
        } onCancel: {
            kill(process.processIdentifier, SIGKILL)
        }
        try Task.checkCancellation()
        return line
    }

    private init(port: Int, directory: URL, process: Process, exited: DispatchSemaphore, stdin: Pipe) {
        self.port = port
        self.directory = directory
        self.process = process
        self.exited = exited
        self.stdin = stdin
    }

    deinit {
        // Closing its stdin makes the sink leave; SIGTERM too. Bounded: a child that has not
        // exited within five seconds is killed, so a test run never hangs on it.
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        if exited.wait(timeout: .now() + .seconds(5)) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every message accepted so far, oldest first.
    func messages() throws -> [Received] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("msg-") && $0.hasSuffix(".json") }.sorted()
        return try files.map {
            try JSONDecoder().decode(Received.self, from: Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    static let script = #"""
        import asyncio, email, email.policy, json, os, signal, ssl, sys, threading
        from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

        # The test process blocks most signals in its threads and children inherit the mask:
        # unblock them so terminate() works, and leave when the test goes away (stdin closes).
        signal.pthread_sigmask(signal.SIG_UNBLOCK, range(1, signal.NSIG))
        def exit_when_parent_leaves():
            sys.stdin.read()
            os._exit(0)
        threading.Thread(target=exit_when_parent_leaves, daemon=True).start()

        outdir, mode, certfile, keyfile, user, password = sys.argv[1:7]

        def write_atomically(name, text):
            tmp = os.path.join(outdir, "." + name + ".tmp")
            with open(tmp, "w") as f:
                f.write(text)
            os.rename(tmp, os.path.join(outdir, name))

        class Handler:
            def __init__(self):
                self.count = 0

            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                if address.startswith("nobody@"):
                    return "550 5.1.1 No such user"
                if address.startswith("busy@"):
                    return "451 4.3.0 Try again later"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                raw = envelope.original_content
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                record = {
                    "mail_from": envelope.mail_from,
                    "rcpt_tos": envelope.rcpt_tos,
                    "authenticated": bool(session.authenticated),
                    "tls": session.ssl is not None,
                    "raw": raw.decode("utf-8", "replace"),
                    "from": str(msg["From"]) if msg["From"] else None,
                    "to": str(msg["To"]) if msg["To"] else None,
                    "subject": str(msg["Subject"]) if msg["Subject"] else None,
                    "date": str(msg["Date"]) if msg["Date"] else None,
                    "message_id": str(msg["Message-ID"]) if msg["Message-ID"] else None,
                    "content_type": msg.get_content_type(),
                    "charset": msg.get_content_charset(),
                    "transfer_encoding": str(msg["Content-Transfer-Encoding"]) if msg["Content-Transfer-Encoding"] else None,
                    "body": msg.get_content(),
                }
                self.count += 1
                write_atomically("msg-%04d.json" % self.count, json.dumps(record))
                return "250 2.0.0 Ok: queued"

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
            return AuthResult(success=ok, handled=False)

        context = None
        if mode in ("starttls", "tls"):
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(certfile, keyfile)

        handler = Handler()

        def factory():
            return SMTP(
                handler,
                hostname="sink.test",
                decode_data=False,
                authenticator=authenticator if user else None,
                auth_required=bool(user),
                auth_require_tls=(mode == "starttls"),
                require_starttls=(mode == "starttls"),
                tls_context=context if mode == "starttls" else None,
            )

        async def main():
            loop = asyncio.get_running_loop()
            server = await loop.create_server(factory, "127.0.0.1", 0, ssl=context if mode == "tls" else None)
            print(server.sockets[0].getsockname()[1], flush=True)
            await asyncio.Event().wait()

        asyncio.run(main())
        """#
}
