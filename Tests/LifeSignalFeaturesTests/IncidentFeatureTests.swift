import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct IncidentFeatureTests {
    nonisolated static let me = Fixtures.id(1)
    nonisolated static let ada = Fixtures.id(2)
    nonisolated static let incidentID = IncidentID(UUID(300))

    nonisolated static func incident(
        _ kind: Incident.Kind = .manualAlert, acknowledgedBy: UserID? = nil, resolved: Incident.Resolution? = nil
    ) -> Incident {
        Incident(
            id: incidentID, userID: ada, kind: kind, openedAt: Fixtures.now.addingTimeInterval(-600),
            dueAt: Fixtures.now.addingTimeInterval(-600), acknowledgedBy: acknowledgedBy,
            acknowledgedAt: acknowledgedBy.map { _ in Fixtures.now },
            resolvedAt: resolved.map { _ in Fixtures.now }, resolution: resolved)
    }

    nonisolated static func report(
        _ incident: Incident, acknowledgedByName: String? = nil, status: Delivery.Status = .sent
    )
        -> IncidentReport
    {
        let delivery = Delivery(
            id: DeliveryID(UUID(400)), notificationID: NotificationID(UUID(401)), recipientID: me, channel: .sms,
            address: "+447700900111", status: status, reason: status == .failed ? "Unreachable number" : nil, attempts: 1,
            createdAt: Fixtures.now, updatedAt: Fixtures.now)
        return IncidentReport(
            incident: incident,
            user: ContactPreview(userID: ada, firstName: "Ada", lastName: "Test", emergencyNote: "Spare key next door."),
            acknowledgedByName: acknowledgedByName,
            recipients: [.init(userID: me, name: "Bob Test", deliveries: [DeliveryProof(delivery)])])
    }

    nonisolated static let open = report(incident())

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    @Test func loadsTheReportAndReloadsOnEventsAboutThisPerson() async {
        let events = AsyncThrowingStream.makeStream(of: StreamEvent.self, throwing: (any Error).self)
        let acknowledged = Self.report(Self.incident(acknowledgedBy: Fixtures.id(3)), acknowledgedByName: "Cy Test")
        let delivered = Self.report(Self.incident(acknowledgedBy: Fixtures.id(3)), acknowledgedByName: "Cy Test", status: .delivered)
        let reports = LockIsolated([Self.open, acknowledged, delivered])
        let store = TestStore(initialState: IncidentFeature.State(incidentID: Self.incidentID, personName: "Ada", viewerID: Self.me)) {
            IncidentFeature()
        } withDependencies: {
            $0.alertClient.incidentReport = { id in
                #expect(id == Self.incidentID)
                return reports.withValue { $0.removeFirst() }
            }
            $0.notificationClient.events = { events.stream }
        }

        let task = await store.send(.task) {
            $0.isLive = true
            $0.isLoading = true
        }
        await store.receive(.reportResponse(.success(Self.open))) {
            $0.isLoading = false
            $0.report = Self.open
        }
        #expect(store.state.canAcknowledge)
        #expect(!store.state.canResolve)
        #expect(store.state.canCheckInOnBehalf)
        #expect(store.state.report?.recipients.first?.deliveries.map(\.status) == [.sent])

        // Someone else's status: nothing to do here.
        let other = Fixtures.status(of: Fixtures.id(5), lastCheckIn: nil, deadline: Fixtures.now, state: .nonResponsive)
        events.continuation.yield(.status(other))
        await store.receive(.streamEvent(.status(other)))

        // Hers: another responder said "I'm on it".
        let hers = Fixtures.status(of: Self.ada, lastCheckIn: nil, deadline: Fixtures.now, state: .alert)
        events.continuation.yield(.status(hers))
        await store.receive(.streamEvent(.status(hers))) { $0.isLoading = true }
        await store.receive(.reportResponse(.success(acknowledged))) {
            $0.isLoading = false
            $0.report = acknowledged
        }
        #expect(store.state.acknowledgedByName == "Cy Test")

        // A notification about another incident, then one about this one.
        let unrelated = Fixtures.notification(1, .incidentOpened, minutesAgo: 0)
        events.continuation.yield(.notification(unrelated))
        await store.receive(.streamEvent(.notification(unrelated)))
        var about = Fixtures.notification(2, .incidentAcknowledged, minutesAgo: 0)
        about.incidentID = Self.incidentID
        events.continuation.yield(.notification(about))
        await store.receive(.streamEvent(.notification(about))) { $0.isLoading = true }
        await store.receive(.reportResponse(.success(delivered))) {
            $0.isLoading = false
            $0.report = delivered
        }
        await task.cancel()
    }

    @Test func anSOSIsResolvedOnlyAfterSayingImOnIt() async {
        let refusal = APIError.server(
            status: 403, code: .acknowledgeFirst,
            message: "Say “I'm on it” before resolving Ada's emergency alert: only they can clear it otherwise.", field: nil)
        let acknowledged = Self.incident(acknowledgedBy: Self.me)
        let resolved = Self.incident(acknowledgedBy: Self.me, resolved: .resolvedByResponder)
        let ackReport = Self.report(acknowledged, acknowledgedByName: "Bob Test")
        let resolveCalls = LockIsolated(0)
        var state = IncidentFeature.State(incidentID: Self.incidentID, personName: "Ada")
        state.report = Self.open
        let store = TestStore(initialState: state) {
            IncidentFeature()
        } withDependencies: {
            $0.alertClient.resolve = { id in
                #expect(id == Self.incidentID)
                resolveCalls.withValue { $0 += 1 }
                if resolveCalls.value == 1 { throw refusal }
                return resolved
            }
            $0.alertClient.acknowledge = { _ in acknowledged }
            $0.alertClient.incidentReport = { _ in ackReport }
        }

        // The viewer is not known yet: resolving is tried and the server's refusal shown.
        #expect(!store.state.canResolve)
        await store.send(.resolveButtonTapped) { $0.isBusy = true }
        await store.receive(.resolveResponse(.failure(UserFacingError(refusal)))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(UserFacingError(message: refusal.message, reason: .refused(.acknowledgeFirst))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }

        await store.send(.acknowledgeButtonTapped) { $0.isBusy = true }
        await store.receive(.acknowledgeResponse(.success(acknowledged))) {
            $0.isBusy = false
            $0.report?.incident = acknowledged
            $0.viewerID = Self.me
            $0.isLoading = true
        }
        await store.receive(.reportResponse(.success(ackReport))) {
            $0.isLoading = false
            $0.report = ackReport
        }
        #expect(store.state.canResolve)
        #expect(!store.state.canAcknowledge)
        // Saying it twice does nothing.
        await store.send(.acknowledgeButtonTapped)

        await store.send(.resolveButtonTapped) { $0.isBusy = true }
        await store.receive(.resolveResponse(.success(resolved))) {
            $0.isBusy = false
            $0.report?.incident = resolved
            $0.isOver = true
        }
        await store.receive(.delegate(.allClear(resolved)))
        #expect(!store.state.canCheckInOnBehalf)
        // Over is over: nothing more is sent.
        await store.send(.resolveButtonTapped)
        await store.send(.checkInOnBehalfButtonTapped)
    }

    @Test func checkingInForThemClosesAMissedCheckIn() async {
        let missed = Self.report(Self.incident(.missedCheckIn))
        let closed = Self.report(Self.incident(.missedCheckIn, resolved: .checkedInByResponder))
        let result = CheckInResult(
            checkIn: CheckIn(id: CheckInID(UUID(0)), userID: Self.ada, at: Fixtures.now, source: .responder, recordedBy: Self.me),
            status: Fixtures.status(of: Self.ada, lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400)),
            duplicate: false)
        var state = IncidentFeature.State(incidentID: Self.incidentID, viewerID: Self.me)
        state.report = missed
        #expect(state.canResolve)
        let store = TestStore(initialState: state) {
            IncidentFeature()
        } withDependencies: {
            $0.uuid = .incrementing
            $0.alertClient.checkInOnBehalf = { userID, checkInID in
                #expect(userID == Self.ada)
                #expect(checkInID == CheckInID(UUID(0)))
                return result
            }
            $0.alertClient.incidentReport = { _ in closed }
        }
        await store.send(.checkInOnBehalfButtonTapped) { $0.isBusy = true }
        await store.receive(.checkInOnBehalfResponse(.success(result))) {
            $0.isBusy = false
            $0.isLoading = true
        }
        await store.receive(.delegate(.checkedInOnBehalf(result)))
        await store.receive(.reportResponse(.success(closed))) {
            $0.isLoading = false
            $0.report = closed
            $0.personName = "Ada"
            $0.isOver = true
        }
        await store.receive(.delegate(.allClear(closed.incident)))
    }

    @Test func aResponderOpensTheSealedDetailsAndTheyGoWithTheAllClear() async {
        let cleared = Self.report(Self.incident(resolved: .cleared))
        var state = IncidentFeature.State(incidentID: Self.incidentID, viewerID: Self.me)
        state.report = Self.open
        #expect(state.canOpenSealedDetails)
        let store = TestStore(initialState: state) {
            IncidentFeature()
        } withDependencies: {
            $0.alertClient.openSealedDetails = { id in
                SealedDetailsView(incidentID: id, userID: Self.ada, details: "Key under the blue pot.", openedAt: Fixtures.now)
            }
            $0.alertClient.incidentReport = { _ in cleared }
        }
        await store.send(.sealedDetailsButtonTapped) { $0.isBusy = true }
        await store.receive(\.sealedDetailsResponse.success) {
            $0.isBusy = false
            $0.sealedDetails = "Key under the blue pot."
        }
        #expect(!store.state.canOpenSealedDetails)
        // Over: they are gone from the screen.
        let safe = Fixtures.status(of: Self.ada, lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400))
        await store.send(.streamEvent(.status(safe))) { $0.isLoading = true }
        await store.receive(.reportResponse(.success(cleared))) {
            $0.isLoading = false
            $0.report = cleared
            $0.personName = "Ada"
            $0.isOver = true
            $0.sealedDetails = nil
        }
        await store.receive(.delegate(.allClear(cleared.incident)))
    }

    @Test func theAllClearFromTheStreamEndsItAndStopsListening() async {
        let events = AsyncThrowingStream.makeStream(of: StreamEvent.self, throwing: (any Error).self)
        let cleared = Self.report(Self.incident(resolved: .cleared))
        let reports = LockIsolated([Self.open, cleared])
        let store = TestStore(initialState: IncidentFeature.State(incidentID: Self.incidentID, viewerID: Self.me)) {
            IncidentFeature()
        } withDependencies: {
            $0.alertClient.incidentReport = { _ in reports.withValue { $0.removeFirst() } }
            $0.notificationClient.events = { events.stream }
        }
        await store.send(.task) {
            $0.isLive = true
            $0.isLoading = true
        }
        await store.receive(.reportResponse(.success(Self.open))) {
            $0.isLoading = false
            $0.report = Self.open
            $0.personName = "Ada"
        }
        // "I'm safe": her status changes and the report shows it cleared.
        let safe = Fixtures.status(of: Self.ada, lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400))
        events.continuation.yield(.status(safe))
        await store.receive(.streamEvent(.status(safe))) { $0.isLoading = true }
        await store.receive(.reportResponse(.success(cleared))) {
            $0.isLoading = false
            $0.report = cleared
            $0.isOver = true
            $0.isLive = false
        }
        await store.receive(.delegate(.allClear(cleared.incident)))
        // The stream was cancelled by the all-clear: the store finishes with nothing in flight.
        await store.finish()
    }

    @Test func aReportThatCannotBeLoadedIsShownAsAnError() async {
        let store = TestStore(initialState: IncidentFeature.State(incidentID: Self.incidentID, personName: "Ada")) {
            IncidentFeature()
        } withDependencies: {
            $0.alertClient.incidentReport = { _ in throw Fixtures.offline }
            $0.notificationClient.events = { AsyncThrowingStream { $0.finish(throwing: Fixtures.serverError) } }
        }
        await store.send(.task) {
            $0.isLive = true
            $0.isLoading = true
        }
        await store.receive(.reportResponse(.failure(Fixtures.offlineFailure))) {
            $0.isLoading = false
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
        await store.receive(.streamEnded(Fixtures.serverFailure)) {
            $0.isLive = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        // Nothing to act on without the report.
        #expect(!store.state.canAcknowledge)
        await store.send(.checkInOnBehalfButtonTapped)
        await store.send(.resolveButtonTapped)
    }

    @Test func aDependentWithAnOpenIncidentOpensItAndTheAllClearClosesIt() async {
        var ada = Fixtures.contact(2, "Ada", roles: .dependent, state: .alert, secondsLeft: -60)
        ada.status?.openIncident = IncidentSummary(id: Self.incidentID, kind: .manualAlert, openedAt: Fixtures.now)
        let bob = Fixtures.contact(3, "Bob", roles: .dependent, state: .ok)
        var safe = ada
        safe.status?.state = .ok
        safe.status?.openIncident = nil
        let safeAda = safe
        let store = TestStore(initialState: DependentsFeature.State(dependents: [ada, bob])) {
            DependentsFeature()
        } withDependencies: {
            $0.contactClient.list = { _ in ContactLists(responders: [], dependents: [safeAda, bob]) }
        }
        await store.send(.list(.contactTapped(bob.id))) {
            $0.list.destination = .contactDetails(ContactDetailsFeature.State(contact: bob))
        }
        await store.send(.list(.destination(.dismiss))) { $0.list.destination = nil }
        await store.send(.list(.contactTapped(ada.id))) {
            $0.list.destination = .incident(IncidentFeature.State(incidentID: Self.incidentID, personName: "Ada"))
        }
        let over = Self.incident(acknowledgedBy: Self.me, resolved: .resolvedByResponder)
        await store.send(.list(.destination(.presented(.incident(.delegate(.allClear(over))))))) {
            $0.list.destination = nil
        }
        await store.receive(.list(.task)) { $0.list.isLoading = true }
        await store.receive(.list(.delegate(.contactsChanged)))
        await store.receive(.delegate(.contactsChanged))
        await store.receive(.list(.contactsResponse(.success(ContactLists(responders: [], dependents: [safeAda, bob]))))) {
            $0.list.isLoading = false
            $0.list.setContacts([safeAda, bob])
        }
    }
}
