import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension UserClient: DependencyKey {
    public static var liveValue: UserClient { .live(api: .fromEnvironment(), tokens: .liveValue) }

    public static func live(api: APIClient, tokens: TokenStorageClient) -> UserClient {
        UserClient(
            profile: { try await api.send(Operations.getProfile) },
            updateProfile: { changes in try await api.send(Operations.updateProfile, body: changes) },
            setPause: { until, openIncident in
                try await api.send(Operations.setPause, body: PauseBody(until: until, openIncident: openIncident))
            },
            uploadAvatar: { image in
                try await api.send(Operations.setAvatar, body: ImageBytes(bytes: Array(image), contentType: Self.imageType(image)))
            },
            deleteAvatar: { try await api.send(Operations.deleteAvatar) },
            avatar: { userID in try await api.data(Operations.getAvatar, ByID(userID)) },
            requestPhoneChange: { phone in try await api.send(Operations.requestPhoneChange, body: PhoneBody(phone: phone)) },
            confirmPhoneChange: { phone, code in
                try await api.send(Operations.confirmPhoneChange, body: VerifyCodeBody(phone: phone, code: code))
            },
            deleteAccount: {
                try await api.send(Operations.deleteAccount)
                try tokens.delete()
            },
            sealedDetails: { try await api.send(Operations.getSealedDetails) },
            exportData: { try await api.data(Operations.exportData.endpoint) },
            exportCheckIns: { try await api.data(Operations.exportCheckIns.endpoint) }
        )
    }

    /// The server checks the bytes themselves; the header only says what we believe we send.
    static func imageType(_ data: Data) -> String {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47])
            ? "image/png" : data.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : "application/octet-stream"
    }
}
