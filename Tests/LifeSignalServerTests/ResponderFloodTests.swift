import Foundation
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A responder is trusted to help, not to flood or to silence: pressing "I'm on it" or
/// checking in for someone twenty times is told once, a claim cannot be kept alive by renewing
/// it, and nobody hears "all clear" while an SOS is still on. Counted at the fake Twilio.
extension TelephonyTests {
    static let ada = "+15551230001", bob = "+15551230002", cy = "+15551230003"

    @Test func aResponderCannotFloodOrHoldAnAlert() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, bob) = try await phone.adaWatchedByBob()
            let (cy, _) = try await client.signUp(phone.world, first: "Cy", phone: Self.cy)
            try await client.link(responder: cy, dependent: ada)
            let alert = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self)
            let id = ["id": alert.id.description]
            try await phone.deliver()

            // Bob says "I'm on it", and again ten minutes later: the claim is not renewed.
            var start = phone.fake.requests.count
            let claimed = try await client.call(Operations.acknowledgeIncident, id, token: bob).decode(Incident.self)
            phone.world.clock.advance(by: 10 * 60)
            let again = try await client.call(Operations.acknowledgeIncident, id, token: bob).decode(Incident.self)
            #expect(again.claimExpiresAt == claimed.claimExpiresAt && again.acknowledgedAt == claimed.acknowledgedAt)

            // He presses it eighteen more times (the limit refuses him after twelve an hour), and
            // tries to check Ada in twenty times while her SOS is on.
            var statuses: [Int] = []
            for _ in 0..<18 { statuses.append(try await client.call(Operations.acknowledgeIncident, id, token: bob).status.code) }
            #expect(statuses.filter { $0 == 200 }.count == 10 && statuses.filter { $0 == 429 }.count == 8, "\(statuses)")
            let adaID = try await Self.userID(client, ada)
            for _ in 0..<20 {
                let behalf = try await client.call(
                    Operations.checkInOnBehalf, ["id": adaID], token: bob, json: CheckInBody(id: CheckInID(UUID())))
                #expect(behalf.status == .forbidden && behalf.error?.code == .acknowledgeFirst)
            }
            try await phone.deliver()
            var sent = phone.fake.requests.dropFirst(start)
            // One "Bob is on it" to Ada and one to Cy; no "all clear" to anyone.
            #expect(sent.filter { $0.form["To"] == Self.ada }.count == 1, "\(sent.map(\.form))")
            #expect(sent.filter { $0.form["To"] == Self.cy }.count == 1)
            let status = try await client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self)
            #expect(status.openIncident?.id == alert.id && status.state == .alert)

            // Cy takes over (twenty presses): Bob is told once that he no longer holds it.
            start = phone.fake.requests.count
            for _ in 0..<20 { _ = try await client.call(Operations.acknowledgeIncident, id, token: cy) }
            try await phone.deliver()
            sent = phone.fake.requests.dropFirst(start)
            let toBob = sent.filter { $0.form["To"] == Self.bob }
            #expect(toBob.count == 1)
            #expect(toBob.first?.form["Body"]?.contains("Cy Tester has taken over Ada Tester's alert") == true, "\(toBob.map(\.form))")
            #expect(sent.filter { $0.form["To"] == Self.ada }.count == 1)
            let report = try await client.call(Operations.getIncident, id, token: bob).decode(IncidentReport.self)
            #expect(report.acknowledgedByName == "Cy Tester")
        }
    }

    /// On a missed check-in a responder may check the person in once; the next tries are
    /// refused, so the others hear it once.
    @Test func aCheckInOnSomeonesBehalfIsToldOnce() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, bob) = try await phone.adaWatchedByBob()
            let (cy, _) = try await client.signUp(phone.world, first: "Cy", phone: Self.cy)
            try await client.link(responder: cy, dependent: ada)
            try await phone.deliver()
            phone.world.clock.advance(by: 25 * 3600)
            let adaID = try await Self.userID(client, ada)
            let start = phone.fake.requests.count
            var statuses: [Int] = []
            for _ in 0..<20 {
                statuses.append(
                    Int(
                        try await client.call(
                            Operations.checkInOnBehalf, ["id": adaID], token: bob, json: CheckInBody(id: CheckInID(UUID()))
                        ).status.code))
            }
            #expect(statuses.first == 200 || statuses.first == 201)
            #expect(statuses.dropFirst().allSatisfy { $0 == 403 }, "\(statuses)")
            try await phone.deliver()
            let sent = phone.fake.requests.dropFirst(start)
            #expect(sent.filter { $0.form["To"] == Self.ada }.count == 1)
            #expect(sent.filter { $0.form["To"] == Self.cy }.count == 1)
        }
    }

    static func userID(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        try await client.call(Operations.getProfile, token: token).decode(User.self).id.description
    }
}
