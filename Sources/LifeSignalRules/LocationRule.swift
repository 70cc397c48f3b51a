import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// The rules of a shared location (``LocationFix``): what a capture may hold, the links a
/// responder opens it with (no map tiles are fetched: the links leave it to their own apps),
/// and the sentence they read ("Last location: 09:14, 2 h 10 min ago, within 35 m, from Ada's
/// SOS") with its plain warnings.
public enum LocationRule {
    /// A capture's time may be this far ahead of the server's clock (a device's clock drifts);
    /// later is refused, and a time ahead is read as now.
    public static let aheadAllowed: TimeInterval = 300
    /// A capture older than this is refused: it is not where she was at her action.
    public static let oldestAccepted: TimeInterval = 86400
    /// A device claiming less certainty than this is not a location.
    public static let coarsestAccepted: Double = 100_000

    /// Checks a fix from her device: coordinates on the globe, an accuracy of more than 0 and
    /// at most 100 km, and a capture time neither more than 5 minutes ahead nor more than a
    /// day old (nil: now). Coordinates keep 7 decimals (about 1 cm), the accuracy whole metres.
    public static func fix(
        latitude: Double?, longitude: Double?, accuracyMeters: Double?, capturedAt: Date?, source: LocationSource, now: Date
    ) throws(ValidationError) -> LocationFix {
        guard let latitude, latitude.isFinite, (-90...90).contains(latitude) else {
            throw ValidationError(field: "latitude", key: "validation.location.latitude")
        }
        guard let longitude, longitude.isFinite, (-180...180).contains(longitude) else {
            throw ValidationError(field: "longitude", key: "validation.location.longitude")
        }
        guard let accuracyMeters, accuracyMeters.isFinite, accuracyMeters > 0, accuracyMeters <= coarsestAccepted else {
            throw ValidationError(field: "accuracyMeters", key: "validation.location.accuracy")
        }
        let at = try captureTime(capturedAt, now: now)
        return LocationFix(
            latitude: (latitude * 1e7).rounded() / 1e7, longitude: (longitude * 1e7).rounded() / 1e7,
            accuracyMeters: max(1, accuracyMeters.rounded()), capturedAt: at, source: source)
    }

    /// When a capture (or a failed one) happened: the device's time, checked; nil is now.
    public static func captureTime(_ capturedAt: Date?, now: Date) throws(ValidationError) -> Date {
        guard let capturedAt else { return now }
        guard capturedAt <= now.addingTimeInterval(aheadAllowed), capturedAt >= now.addingTimeInterval(-oldestAccepted) else {
            throw ValidationError(field: "capturedAt", key: "validation.location.capturedAt")
        }
        return min(capturedAt, now)
    }

    /// `geo:48.2082,16.3738`: opens the phone's own map app (RFC 5870).
    public static func geoLink(_ fix: LocationFix) -> String {
        "geo:\(coordinate(fix.latitude)),\(coordinate(fix.longitude))"
    }

    /// OpenStreetMap's page with a marker at the fix, at street level.
    public static func mapLink(_ fix: LocationFix) -> String {
        let (lat, lon) = (coordinate(fix.latitude), coordinate(fix.longitude))
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)"
    }

    /// Degrees with at most 7 decimals, no exponent, no trailing zeros.
    static func coordinate(_ degrees: Double) -> String {
        var text = String(format: "%.7f", degrees)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Whether a responder is warned the fix is old (over an hour) or coarse (over 500 m).
    public static func isStale(_ fix: LocationFix, now: Date) -> Bool {
        now.timeIntervalSince(fix.capturedAt) > LocationFix.staleAfter
    }

    public static func isCoarse(_ fix: LocationFix) -> Bool { fix.accuracyMeters > LocationFix.coarseBeyondMeters }

    /// "2 h 10 min ago", "5 min ago", "just now".
    public static func age(_ fix: LocationFix, now: Date, words: Words) -> String {
        let minutes = max(0, Int(now.timeIntervalSince(fix.capturedAt) / 60))
        if minutes < 1 { return words("location.ago.now") }
        if minutes < 60 { return words("location.ago.minutes", ["minutes": String(minutes)]) }
        return words("location.ago.hours", ["hours": String(minutes / 60), "minutes": String(minutes % 60)])
    }

    /// "Ada's SOS", "the start of Ada's plan"…: the action it was captured at.
    public static func source(_ source: LocationSource, name: String, words: Words) -> String {
        let key =
            switch source {
            case .sos: "location.source.sos"
            case .checkIn: "location.source.checkIn"
            case .planStart: "location.source.planStart"
            case .planExtend: "location.source.planExtend"
            case .planBack: "location.source.planBack"
            }
        return words(key, ["name": name])
    }

    /// "Last location: 09:14, 2 h 10 min ago, within 35 m, from Ada's SOS" (times in `zone`).
    public static func sentence(_ fix: LocationFix, name: String, now: Date, zone: TimeZone, words: Words) -> String {
        words(
            "location.last",
            [
                "time": HumanTime.clock(fix.capturedAt, in: zone), "ago": age(fix, now: now, words: words),
                "meters": String(Int(fix.accuracyMeters)), "source": source(fix.source, name: name, words: words),
            ])
    }

    /// The plain warnings under the sentence: old, coarse, or both.
    public static func warnings(_ fix: LocationFix, name: String, now: Date, words: Words) -> [String] {
        var said: [String] = []
        if isStale(fix, now: now) { said.append(words("location.stale", ["name": name])) }
        if isCoarse(fix) { said.append(words("location.coarse", ["meters": String(Int(fix.accuracyMeters))])) }
        return said
    }

    /// "Ada's location could not be read at 09:14 (her SOS)."
    public static func couldNotRead(_ failure: LocationFailure, name: String, zone: TimeZone, words: Words) -> String {
        words(
            "location.couldNotRead",
            ["name": name, "time": HumanTime.clock(failure.at, in: zone), "source": source(failure.source, name: name, words: words)])
    }
}
