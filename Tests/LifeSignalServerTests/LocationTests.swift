import Foundation
import HTTPTypes
import HummingbirdTesting
import LifeSignalAPI
@testable import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
@_spi(Testing) import LifeSignalStore
import Testing

/// Her location, only when it matters, on both databases: stored only with the switch on,
/// shown only to her responders while an alert about her is open, each responder's first look
/// one timeline entry, kept 7 days (30 after an alert), and never in a message.
struct LocationTests {
    /// Coordinates no other text in the product holds, so a search for them finds only them.
    static let fix = LocationBody(latitude: 48.2081743, longitude: 16.3738189, accuracyMeters: 35, source: .planStart)
    static let sosFix = LocationBody(latitude: 47.8094561, longitude: 13.0550234, accuracyMeters: 12, source: .sos)
    static let traces = ["48.208", "16.373", "47.809", "13.055", "482081743", "478094561"]

    /// Ada with location sharing on (or off), Bob her responder, Cy a stranger.
    func scenario(
        _ world: TestWorld, _ client: any TestClientProtocol, phones: Int, sharing: Bool = true
    ) async throws -> (ada: Person, bob: Person, cy: Person) {
        let ada = try await person(world, client, "Ada", phone: "+4477008\(phones)1")
        let bob = try await person(world, client, "Bob", phone: "+4477008\(phones)2")
        let cy = try await person(world, client, "Cy", phone: "+4477008\(phones)3")
        try await client.link(responder: bob.token, dependent: ada.token)
        if sharing {
            let on = try await client.call(Operations.updateProfile, token: ada.token, json: ProfileChanges(shareLocation: true))
            #expect(on.status == .ok)
            #expect(try on.decode(User.self).shareLocation)
        }
        return (ada, bob, cy)
    }

    func rows(_ world: TestWorld, _ table: String = "locations") async throws -> Int {
        try await world.store.read { try await $0.executor.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") } ?? -1
    }

    func page(_ client: any TestClientProtocol, _ path: String, _ token: String) async throws -> String {
        try await ResponderPagesTests.page(client, path, token)
    }

    func seen(_ world: TestWorld, _ ada: Person) async throws -> [TimelineEntry] {
        try await world.timeline.timeline(ada.caller).filter { $0.kind == "location_seen" }
    }

    @Test(arguments: TestBackend.all)
    func shownOnlyToHerRespondersWhileAnAlertIsOpenAndEachLookRecordedOnce(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, cy) = try await scenario(world, client, phones: 11)
            let dee = try await person(world, client, "Dee", phone: "+447700811" + "4")
            let vic = try await person(world, client, "Vic", phone: "+447700811" + "5")
            try await client.link(responder: dee.token, dependent: ada.token)
            // Ada watches over Vic: he is her dependent, not her responder.
            try await client.link(responder: ada.token, dependent: vic.token)

            // Her plan's start, outside any alert: stored, hers to see.
            let stored = try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix)
            #expect(stored.status == .created)
            #expect(try stored.decode(LocationView.self).fix?.latitude == 48.2081743)
            #expect(try await client.call(Operations.getLocation, token: ada.token).decode(LocationView.self).fix?.source == .planStart)
            // A check-in's is refused while sharing at check-ins is off.
            let checkIn = LocationBody(latitude: 1, longitude: 2, accuracyMeters: 3, source: .checkIn)
            let refused = try await client.call(Operations.recordLocation, token: ada.token, json: checkIn)
            #expect(refused.status == .conflict)
            #expect(refused.error?.code == .locationOff)

            // No alert: nothing of it anywhere Bob can read, on the API or the web.
            let status = try await client.call(Operations.getContactStatus, ["id": ada.user.id.description], token: bob.token)
            #expect(status.status == .ok)
            let bobsPages = [
                try await page(client, "/", bob.token), try await page(client, "/contacts/\(ada.user.id)", bob.token),
                String(decoding: status.body, as: UTF8.self),
            ]
            for text in bobsPages { #expect(!Self.traces.contains { text.contains($0) }) }
            let none = try await client.call(Operations.getIncidentLocation, ["id": IncidentID(UUID()).description], token: bob.token)
            #expect(none.status == .notFound)

            // Her SOS: Bob reads her latest location; a stranger, her dependent, and herself do not.
            let sos = try await client.call(Operations.raiseAlert, token: ada.token).decode(Incident.self)
            let id = ["id": sos.id.description]
            let shown = try await client.call(Operations.getIncidentLocation, id, token: bob.token)
            #expect(shown.status == .ok)
            let view = try shown.decode(LocationView.self)
            #expect(view.incidentID == sos.id)
            #expect(view.fix?.latitude == 48.2081743)
            #expect(view.fix?.accuracyMeters == 35)
            for other in [cy, vic, ada] {
                let refused = try await client.call(Operations.getIncidentLocation, id, token: other.token)
                #expect(refused.status == .notFound, "\(other.user.firstName)")
                #expect(!Self.traces.contains { String(decoding: refused.body, as: UTF8.self).contains($0) })
            }

            // The fix her SOS page sends belongs to the alert and is the one shown now.
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.sosFix).status == .created)
            let again = try await client.call(Operations.getIncidentLocation, id, token: bob.token).decode(LocationView.self)
            #expect(again.fix?.source == .sos)
            #expect(again.fix?.latitude == 47.8094561)

            // The alert's page shows it first, with its links; looking again and again is one entry.
            let incidentPage = try await page(client, "/incidents/\(sos.id)", bob.token)
            #expect(incidentPage.contains(#"id="location""#))
            #expect(incidentPage.contains("Last location: "))
            #expect(incidentPage.contains("within 12 m, from Ada&#39;s SOS") || incidentPage.contains("within 12 m, from Ada's SOS"))
            #expect(
                incidentPage.contains("https://www.openstreetmap.org/?mlat=47.8094561&amp;mlon=13.0550234#map=17/47.8094561/13.0550234"))
            #expect(incidentPage.contains("geo:47.8094561,13.0550234"))
            _ = try await page(client, "/incidents/\(sos.id)", bob.token)
            // The takeover of his Home shows it too, beside Call.
            let home = try await page(client, "/", bob.token)
            #expect(home.contains("takeover-location-\(ada.user.id)"))
            #expect(home.contains("within 12 m"))
            #expect(try await seen(world, ada).map(\.summary) == ["Bob Tester saw your location"])
            // Dee's first look is his own entry.
            #expect(try await client.call(Operations.getIncidentLocation, id, token: dee.token).status == .ok)
            #expect(try await seen(world, ada).map(\.summary) == ["Bob Tester saw your location", "Dee Tester saw your location"])
            // Her own page of the alert never shows it to her as a responder would.
            #expect(!(try await page(client, "/incidents/\(sos.id)", ada.token)).contains(#"id="location""#))

            // Dee is removed as her responder: not found for him from then on.
            #expect(
                try await client.call(Operations.removeContact, ["id": dee.user.id.description], token: ada.token).status == .noContent)
            #expect(try await client.call(Operations.getIncidentLocation, id, token: dee.token).status == .notFound)

            // The all-clear: gone from Bob's view at once.
            #expect(try await client.call(Operations.clearAlert, token: ada.token).status == .ok)
            let after = try await client.call(Operations.getIncidentLocation, id, token: bob.token)
            #expect(after.status == .conflict)
            #expect(after.error?.code == .incidentResolved)
            let ended = try await page(client, "/incidents/\(sos.id)", bob.token)
            #expect(!ended.contains(#"id="location""#))
            #expect(!Self.traces.contains { ended.contains($0) })
            let homeAfter = try await page(client, "/", bob.token)
            #expect(!homeAfter.contains("takeover-location-"))
            #expect(!Self.traces.contains { homeAfter.contains($0) })
            #expect(try await seen(world, ada).count == 2)
            // Nothing that was sent or recorded carries a coordinate.
            let sent = try await world.everythingSent()
            for trace in Self.traces { #expect(!sent.contains(trace), "\(trace) in a message or record") }
            #expect(try await world.timeline.verifyTimeline(ada.caller).valid)
        }
    }

    @Test(arguments: TestBackend.all)
    func lookingEightTimesAtOnceIsOneEntry(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, _) = try await scenario(world, client, phones: 51)
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix).status == .created)
            let sos = try await world.incidents.raiseAlert(ada.caller)
            let bobCaller = bob.caller
            try await withThrowingTaskGroup(of: LocationView.self) { group in
                for _ in 0..<8 { group.addTask { try await world.locations.forIncident(bobCaller, incident: sos.id) } }
                for try await view in group { #expect(view.fix?.latitude == 48.2081743) }
            }
            #expect(try await seen(world, ada).map(\.summary) == ["Bob Tester saw your location"])
            #expect(try await rows(world, "location_views") == 1)
            #expect(try await world.timeline.verifyTimeline(ada.caller).valid)
        }
    }

    @Test(arguments: TestBackend.all)
    func keptSevenDaysOrThirtyAfterItsAlertEndsAndExportedErasedWithHer(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _, _) = try await scenario(world, client, phones: 21)
            let retention = RetentionService(core: world.core)
            // Outside an alert only the latest is kept.
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix).status == .created)
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix).status == .created)
            #expect(try await rows(world) == 1)
            // A capture that failed is kept beside her last good fix, and shown as newer.
            world.clock.advance(by: 60)
            let failed = LocationBody(source: .planBack, failed: true)
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: failed).status == .created)
            let own = try await world.locations.own(ada.caller)
            #expect(own.fix?.source == .planStart)
            #expect(own.couldNotRead?.source == .planBack)
            #expect(try await rows(world) == 2)

            // Seven days later: gone.
            world.clock.advance(by: 7 * 86400 - 120)
            #expect(try await retention.prune().locations == 0)
            world.clock.advance(by: 180)
            #expect(try await retention.prune().locations == 2)
            #expect(try await world.locations.own(ada.caller).isEmpty)

            // During an alert, its fix belongs to it: kept 30 days after it ends, then gone.
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix).status == .created)
            let sos = try await client.call(Operations.raiseAlert, token: ada.token).decode(Incident.self)
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.sosFix).status == .created)
            #expect(try await client.call(Operations.clearAlert, token: ada.token).status == .ok)
            world.clock.advance(by: 8 * 86400)
            #expect(try await retention.prune().locations == 1)
            let export = try await client.call(Operations.exportData, token: ada.token).decode(DataExport.self)
            #expect(export.locations.count == 1)
            #expect(export.locations.first?.incidentID == sos.id)
            #expect(export.locations.first?.fix?.latitude == 47.8094561)
            world.clock.advance(by: 22 * 86400 - 60)
            #expect(try await retention.prune().locations == 0)
            world.clock.advance(by: 120)
            #expect(try await retention.prune().locations == 1)
            #expect(try await rows(world) == 0)

        }
    }

    @Test(arguments: TestBackend.all)
    func withTheSwitchOffNothingIsStoredAndTurningItOffDeletesEverything(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, _) = try await scenario(world, client, phones: 31, sharing: false)
            #expect(try await client.call(Operations.getProfile, token: ada.token).decode(User.self).shareLocation == false)
            let refused = try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix)
            #expect(refused.status == .conflict)
            #expect(refused.error?.code == .locationOff)
            #expect(try await rows(world) == 0)
            // During her SOS Bob reads that she does not share it, and nothing is recorded.
            let sos = try await client.call(Operations.raiseAlert, token: ada.token).decode(Incident.self)
            let view = try await client.call(Operations.getIncidentLocation, ["id": sos.id.description], token: bob.token)
                .decode(LocationView.self)
            #expect(view.sharing == false)
            #expect(view.isEmpty)
            #expect(try await seen(world, ada).isEmpty)
            _ = try await client.call(Operations.clearAlert, token: ada.token)

            // On, a fix, then off: every location of hers is gone, and nothing more is taken.
            #expect(
                try await client.call(Operations.updateProfile, token: ada.token, json: ProfileChanges(shareLocation: true)).status == .ok)
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix).status == .created)
            #expect(try await rows(world) == 1)
            let off = try await client.call(Operations.updateProfile, token: ada.token, json: ProfileChanges(shareLocation: false))
            #expect(try off.decode(User.self).shareLocation == false)
            #expect(try await rows(world) == 0)
            #expect(try await client.call(Operations.recordLocation, token: ada.token, json: Self.fix).status == .conflict)
            #expect(try await rows(world) == 0)
            let history = try await world.timeline.timeline(ada.caller).filter { $0.kind == "location_sharing" }.map(\.summary)
            #expect(history == ["Location sharing on", "Location sharing off; stored locations deleted"])

            // Bad input: a clear error naming the field, nothing stored.
            _ = try await client.call(Operations.updateProfile, token: ada.token, json: ProfileChanges(shareLocation: true))
            let bad: [(LocationBody, ErrorCode)] = [
                (LocationBody(latitude: 91, longitude: 0, accuracyMeters: 5, source: .sos), .invalidLatitude),
                (LocationBody(latitude: 0, longitude: -181, accuracyMeters: 5, source: .sos), .invalidLongitude),
                (LocationBody(latitude: 0, longitude: 0, accuracyMeters: 0, source: .sos), .invalidAccuracyMeters),
                (LocationBody(latitude: 0, longitude: 0, source: .sos), .invalidAccuracyMeters),
                (
                    LocationBody(
                        latitude: 0, longitude: 0, accuracyMeters: 5, capturedAt: world.clock.now.addingTimeInterval(3600), source: .sos),
                    .invalidCapturedAt
                ),
            ]
            for (body, code) in bad {
                let answer = try await client.call(Operations.recordLocation, token: ada.token, json: body)
                #expect(answer.status == .badRequest)
                #expect(answer.error?.code == code)
            }
            #expect(try await rows(world) == 0)
        }
    }

    @Test(arguments: TestBackend.all)
    func anSOSWhoseLocationCannotBeReadGoesOutAtOnceAndSheSeesIt(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, _) = try await scenario(world, client, phones: 41)
            // The alert is out before any location: Bob is told at once.
            let sos = try await client.call(Operations.raiseAlert, token: ada.token)
            #expect(sos.status == .created)
            let incident = try sos.decode(Incident.self)
            #expect(try await world.notifications(bob.caller).contains { $0.type == .manualAlert || $0.incidentID == incident.id })
            // Her page reports the capture failed.
            let failed = try await client.call(
                Operations.recordLocation, token: ada.token, json: LocationBody(source: .sos, failed: true))
            #expect(failed.status == .created)
            #expect(try failed.decode(LocationView.self).couldNotRead?.source == .sos)
            #expect(try await page(client, "/", ada.token).contains("Your location could not be read. Your alert went out without it."))
            // Bob reads that it could not be read.
            let view = try await client.call(Operations.getIncidentLocation, ["id": incident.id.description], token: bob.token)
                .decode(LocationView.self)
            #expect(view.fix == nil)
            #expect(view.couldNotRead != nil)
            let bobsPage = try await page(client, "/incidents/\(incident.id)", bob.token)
            #expect(bobsPage.contains("location could not be read at"))

            // Deleting her account deletes every capture and every record of a look.
            #expect(try await rows(world) == 1)
            #expect(try await rows(world, "location_views") == 1)
            #expect(try await client.call(Operations.deleteAccount, token: ada.token).status == .noContent)
            #expect(try await rows(world) == 0)
            #expect(try await rows(world, "location_views") == 0)
        }
    }
}

extension TelephonyTests {
    /// Her location never travels in a text or a call (the fake Twilio sees every one), nor in
    /// any notification a webhook, e-mail or push is made from.
    @Test func herLocationIsInNoTextOrCall() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, bob) = try await phone.adaWatchedByBob()
            #expect(
                try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(shareLocation: true)).status == .ok)
            #expect(try await client.call(Operations.recordLocation, token: ada, json: LocationTests.fix).status == .created)
            let sos = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self)
            #expect(try await client.call(Operations.recordLocation, token: ada, json: LocationTests.sosFix).status == .created)
            #expect(try await client.call(Operations.getIncidentLocation, ["id": sos.id.description], token: bob).status == .ok)
            try await phone.deliver()
            _ = try await client.call(Operations.clearAlert, token: ada)
            try await phone.deliver()
            let requests = phone.fake.requests
            #expect(requests.contains { $0.resource.hasPrefix("Messages") })
            let sent = String(describing: requests.map(\.form))
            for trace in LocationTests.traces { #expect(!sent.contains(trace), "\(trace) sent through Twilio") }
            let rows = try await phone.world.store.read { tx in
                String(describing: try await tx.executor.query("SELECT title, body FROM notifications", []))
            }
            for trace in LocationTests.traces { #expect(!rows.contains(trace), "\(trace) in a notification") }
        }
    }
}
