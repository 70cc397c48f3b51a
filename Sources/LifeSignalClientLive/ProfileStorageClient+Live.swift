import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI

extension ProfileStorageClient: DependencyKey {
    /// The 0600 file `profile.json` in the config directory (on iOS, the app's documents).
    public static var liveValue: ProfileStorageClient {
        .file(at: ConfigDirectory.current().appendingPathComponent("profile.json"))
    }

    /// A JSON file readable by its owner only; an unreadable file counts as none.
    public static func file(at url: URL) -> ProfileStorageClient {
        ProfileStorageClient(
            load: {
                guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
                return try? APICoding.decoder.decode(StoredProfile.self, from: data)
            },
            save: { profile in try PrivateFile.write(try APICoding.encoder.encode(profile), to: url) },
            clear: {
                if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            }
        )
    }
}
