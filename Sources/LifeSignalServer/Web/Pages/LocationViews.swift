import Foundation
import LifeSignalModels
import LifeSignalRules

/// Her location as a responder reads it on an open alert's page, first, beside Call: "Last
/// location: 09:14, 2 h 10 min ago, within 35 m, from Ada's SOS", a `geo:` link for the phone's
/// map app and an OpenStreetMap link (no map tiles are fetched), plain warnings when it is old
/// or coarse, and "her location could not be read" when her last capture failed.
struct LocationShown {
    let line: String?
    let geo: String?
    let map: String?
    let warnings: [String]
    let couldNotRead: String?
    let geoLabel = say("web.location.geo")
    let mapLabel = say("web.location.map")

    /// Nil when there is nothing to show.
    init?(_ view: LocationView, name: String) {
        guard !view.isEmpty else { return nil }
        let reader = ReaderClock.current
        line = view.fix.map { LocationRule.sentence($0, name: name, now: reader.now, zone: reader.zone, words: reader.words) }
        geo = view.fix.map(LocationRule.geoLink)
        map = view.fix.map(LocationRule.mapLink)
        warnings = view.fix.map { LocationRule.warnings($0, name: name, now: reader.now, words: reader.words) } ?? []
        couldNotRead = view.couldNotRead.map { LocationRule.couldNotRead($0, name: name, zone: reader.zone, words: reader.words) }
    }
}

/// The settings card: the switch, what it does in plain words, and a preview of exactly what a
/// responder would see during an alert (her kept location if there is one, else an example).
struct LocationSettingsView {
    let on: Bool
    let atCheckIns: Bool
    let preview: LocationShown?
    /// The preview shows an example, not her own location.
    let isExample: Bool

    init(_ user: User, kept: LocationView) {
        on = user.shareLocation
        atCheckIns = user.shareLocationAtCheckIns
        let name = user.firstName.isEmpty ? user.fullName : user.firstName
        if kept.fix != nil {
            preview = LocationShown(kept, name: name)
            isExample = false
        } else {
            // An example as her responders would read it: taken at her SOS 2 h 10 min ago.
            let now = ReaderClock.current.now
            let example = LocationFix(
                latitude: 51.5007, longitude: -0.1246, accuracyMeters: 35, capturedAt: now.addingTimeInterval(-(2 * 3600 + 600)),
                source: .sos)
            preview = LocationShown(LocationView(userID: user.id, sharing: true, fix: example), name: name)
            isExample = true
        }
    }
}

/// What she sees of her own location during her alert: what her responders are shown, or that
/// it could not be read.
struct OwnLocationLine {
    let text: String
    let failed: Bool

    init?(_ view: LocationView) {
        guard view.sharing else { return nil }
        let reader = ReaderClock.current
        if view.couldNotRead != nil {
            text = say("web.location.own.couldNotRead")
            failed = true
        } else if let fix = view.fix {
            text = say(
                "web.location.own.shared",
                ["time": HumanTime.clock(fix.capturedAt, in: reader.zone), "meters": String(Int(fix.accuracyMeters))])
            failed = false
        } else {
            return nil
        }
    }
}
