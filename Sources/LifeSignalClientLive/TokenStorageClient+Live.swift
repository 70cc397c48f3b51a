import Dependencies
import Foundation
import LifeSignalClient

extension TokenStorageClient: DependencyKey {
    /// On Apple platforms this should be the Keychain; here (and until then) it is the
    /// 0600 file `token` in the config directory.
    public static var liveValue: TokenStorageClient {
        .file(at: ConfigDirectory.current().appendingPathComponent("token"))
    }

    /// A file readable by its owner only (mode 0600), in a directory of mode 0700.
    public static func file(at url: URL) -> TokenStorageClient {
        TokenStorageClient(
            load: {
                guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
                let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return token.isEmpty ? nil : token
            },
            save: { token in
                try PrivateFile.write(Data(token.utf8), to: url)
            },
            delete: {
                if FileManager.default.fileExists(atPath: url.path) {
                    try FileManager.default.removeItem(at: url)
                }
            }
        )
    }
}
