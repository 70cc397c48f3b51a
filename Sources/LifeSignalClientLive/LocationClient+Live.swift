import Dependencies
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalModels

extension LocationClient: DependencyKey {
    public static var liveValue: LocationClient { .live(api: .fromEnvironment()) }

    /// Reading the position is the device's (Core Location on iOS); here there is none, so a
    /// capture is sent as one that could not be read.
    public struct Unavailable: Error {}

    public static func live(api: APIClient) -> LocationClient {
        LocationClient(
            currentPosition: { throw Unavailable() },
            record: { reading, source in
                try await api.send(
                    Operations.recordLocation,
                    body: LocationBody(
                        latitude: reading?.latitude, longitude: reading?.longitude, accuracyMeters: reading?.accuracyMeters,
                        capturedAt: reading?.capturedAt ?? Date(), source: source, failed: reading == nil ? true : nil))
            },
            own: { try await api.send(Operations.getLocation) },
            forIncident: { id in try await api.send(Operations.getIncidentLocation, ByID(id)) }
        )
    }
}
