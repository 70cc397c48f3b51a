import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// Her location, shared with her responders only during an alert (``LocationFix``): read once
/// after one of her own actions and sent; and, for a responder, hers during an open alert.
@DependencyClient
public struct LocationClient: Sendable {
    /// Reads the device's position once (iOS: Core Location's one-shot request, 10 s at most,
    /// a position at most 60 s old, best accuracy). Only iOS can read it: elsewhere it throws,
    /// which is sent as "could not be read".
    public var currentPosition: @Sendable () async throws -> LocationReading
    /// Sends what was read after `source` (nil: it could not be read); refused while sharing is off.
    public var record: @Sendable (_ reading: LocationReading?, _ source: LocationSource) async throws -> LocationView
    /// What is kept of her own location (and would be shown during an alert).
    public var own: @Sendable () async throws -> LocationView
    /// Her last location for one of her responders during an open alert about her.
    public var forIncident: @Sendable (_ id: IncidentID) async throws -> LocationView
}

/// One position as the device read it.
public struct LocationReading: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var capturedAt: Date

    public init(latitude: Double, longitude: Double, accuracyMeters: Double, capturedAt: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.capturedAt = capturedAt
    }
}

extension LocationClient: TestDependencyKey {
    public static let testValue = LocationClient()

    public static let previewValue = LocationClient(
        currentPosition: { LocationReading(latitude: 51.5007, longitude: -0.1246, accuracyMeters: 35, capturedAt: Date()) },
        record: { reading, source in
            LocationView(
                userID: UserID(UUID()), sharing: true,
                fix: reading.map {
                    LocationFix(
                        latitude: $0.latitude, longitude: $0.longitude, accuracyMeters: $0.accuracyMeters, capturedAt: $0.capturedAt,
                        source: source)
                },
                couldNotRead: reading == nil ? LocationFailure(at: Date(), source: source) : nil)
        },
        own: { LocationView(userID: UserID(UUID()), sharing: false) },
        forIncident: { id in LocationView(userID: UserID(UUID()), incidentID: id, sharing: true) }
    )
}

extension DependencyValues {
    public var locationClient: LocationClient {
        get { self[LocationClient.self] }
        set { self[LocationClient.self] = newValue }
    }
}
