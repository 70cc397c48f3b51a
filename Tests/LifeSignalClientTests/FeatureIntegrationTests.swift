import ComposableCore
import ComposableCoreTesting
import Dependencies
import Foundation
import LifeSignalTestSupport
import Logging
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalFeatures
import LifeSignalModels
import Testing

/// The app's features driven against the real server in process (real `LifeSignalCore`,
/// SQLite in a temporary directory, a real socket) through the live clients. The stores are
/// non-exhaustive: what matters here is that each feature's effects reach the server and that
/// what comes back lands in state — the exhaustive, step-by-step tests are in
/// LifeSignalFeaturesTests. (This suite runs with real concurrency, so it lives next to the
/// client tests rather than in the main-serial-executor process of the feature tests.)
@MainActor
@Suite("Features against the live server", .timeLimit(.minutes(5)))
struct FeatureIntegrationTests {
    static let timeout: Duration = .seconds(10)

    func store<F: Reducer>(
        _ initialState: F.State, _ feature: F, device: Device,
        clock: some Clock<Duration> = ContinuousClock(),
        _ more: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<F.State, F.Action> where F.State: Equatable {
        let store = TestStore(initialState: initialState) {
            feature
        } withDependencies: {
            $0.authClient = device.auth
            $0.userClient = device.users
            $0.contactClient = device.contacts
            $0.pingClient = device.pings
            $0.alertClient = device.alerts
            $0.notificationClient = device.notifications
            $0.checkInClient = device.checkIns()
            $0.tokenStorageClient = device.tokens
            $0.hapticsClient = .previewValue
            $0.localNotificationClient = .previewValue
            $0.reachabilityClient = .previewValue
            $0.continuousClock = clock
            $0.date = DateGenerator { Date() }
            $0.uuid = UUIDGenerator { UUID() }
            more(&$0)
        }
        store.exhaustivity = .off
        store.timeout = Self.timeout
        return store
    }

    @Test func signInThroughTheFeatureStoresTheToken() async throws {
        let world = try await TestWorld()
        try await world.serve { @MainActor server in
            let device = Device(server: server)
            let signIn = store(SignInFeature.State(region: .unitedKingdom), SignInFeature(), device: device)
            await signIn.send(.phone(.numberChanged("07700 900771")))
            await signIn.send(.sendCodeButtonTapped)
            await signIn.receive(\.codeRequestResponse.success)
            let code = try #require(world.code(for: "+447700900771"))
            await signIn.send(.codeChanged(code))
            await signIn.send(.verifyButtonTapped)
            await signIn.receive(\.delegate.signedIn)
            #expect(try device.tokens.load() != nil)
            // The token works: the server knows this person.
            #expect(try await device.users.profile().phone == "+447700900771")
            await signIn.skipInFlightEffects(strict: false)

            // A wrong code is the server's error, shown by the feature, and signs nobody in.
            let other = Device(server: server)
            let wrong = store(SignInFeature.State(region: .unitedKingdom), SignInFeature(), device: other)
            await wrong.send(.phone(.numberChanged("07700 900772")))
            await wrong.send(.sendCodeButtonTapped)
            await wrong.receive(\.codeRequestResponse.success)
            let real = try #require(world.code(for: "+447700900772"))
            await wrong.send(.codeChanged(real == "000000" ? "111111" : "000000"))
            await wrong.send(.verifyButtonTapped)
            await wrong.receive(\.verifyResponse.failure)
            #expect(wrong.state.destination.is(\.alert))
            #expect(try other.tokens.load() == nil)
            await wrong.skipInFlightEffects(strict: false)
        }
    }

    @Test func linkPingAnswerAlertAndNotificationsThroughTheFeatures() async throws {
        let world = try await TestWorld()
        try await world.serve { @MainActor server in
            let (ada, adaUser) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900781")
            let (bob, bobUser) = try await Device.signUp(world, server: server, first: "Bob", phone: "+447700900782")

            // Ada opens Bob's link and adds him as her responder.
            let link = try await bob.contacts.contactCode().link
            let add = store(AddContactFeature.State(), AddContactFeature(), device: ada)
            await add.send(.linkOpened(link))
            await add.receive(\.lookUpResponse.success)
            #expect(add.state.preview?.userID == bobUser.id)
            await add.send(.addButtonTapped)
            await add.receive(\.delegate.requestSent)
            #expect(try await ada.contacts.list(sort: .urgency).responders.isEmpty)

            // Bob accepts from his requests screen.
            let requests = store(ContactRequestsFeature.State(), ContactRequestsFeature(), device: bob)
            await requests.send(.task)
            await requests.receive(\.requestsResponse.success)
            let request = try #require(requests.state.incoming.first)
            await requests.send(.acceptButtonTapped(request.id))
            await requests.receive(\.delegate.contactAccepted)
            #expect(try await ada.contacts.list(sort: .urgency).responders.map(\.userID) == [bobUser.id])

            // Bob's dependents list loads Ada; he pings her from it.
            let dependents = store(DependentsFeature.State(), DependentsFeature(), device: bob)
            await dependents.send(.list(.task))
            await dependents.receive(\.list.contactsResponse.success)
            #expect(dependents.state.dependents.ids == [adaUser.id])
            await dependents.send(.pingButtonTapped(adaUser.id))
            await dependents.receive(\.pingResponse)
            #expect(dependents.state.dependents[id: adaUser.id]?.outgoingPing != nil)
            await dependents.skipInFlightEffects(strict: false)

            // Ada's responders list shows the ping first; answering all checks her in.
            let responders = store(RespondersFeature.State(), RespondersFeature(), device: ada)
            await responders.send(.list(.task))
            await responders.receive(\.list.contactsResponse.success)
            #expect(responders.state.pendingPingCount == 1)
            await responders.send(.respondToAllButtonTapped)
            await responders.receive(\.delegate.checkedIn)
            #expect(responders.state.pendingPingCount == 0)
            await responders.skipInFlightEffects(strict: false)
            let adaSeenByBob = try await bob.contacts.contact(id: adaUser.id)
            #expect(adaSeenByBob.outgoingPing == nil)
            #expect(adaSeenByBob.status?.lastCheckInAt != nil)

            // SOS: five taps raise it, a three-second hold clears it (a real clock: a test clock
            // advanced from outside races the hold's own timer under real concurrency).
            let alert = store(AlertFeature.State(), AlertFeature(), device: ada)
            for _ in 0..<5 { await alert.send(.alertButtonTapped) }
            await alert.receive(\.delegate.alertRaised)
            #expect(alert.state.isAlertActive)
            #expect(try await bob.contacts.status(id: adaUser.id).state == .alert)
            await alert.send(.clearButtonPressed)
            await alert.receive(\.delegate.alertCleared)
            #expect(!alert.state.isAlertActive)
            #expect(try await bob.contacts.status(id: adaUser.id).state == .ok)
            await alert.skipInFlightEffects(strict: false)

            // Bob's notifications: the story so far, then all read — on the server too.
            let notifications = store(NotificationsFeature.State(), NotificationsFeature(), device: bob)
            await notifications.send(.task)
            await notifications.receive(\.pageResponse.success)
            let kinds = Set(notifications.state.notifications.map(\.type))
            #expect(kinds.isSuperset(of: [.contactRequested, .pingAnswered, .manualAlert, .manualAlertCleared]))
            #expect(notifications.state.unreadCount > 0)
            await notifications.send(.markAllReadButtonTapped)
            await notifications.receive(\.markAllReadResponse.success)
            #expect(notifications.state.unreadCount == 0)
            #expect(try await bob.notifications.list(query: NotificationQuery(unreadOnly: true)).items.isEmpty)
            await notifications.skipInFlightEffects(strict: false)

            // Ada checks in from the check-in feature; the server's status is what the feature shows.
            let user = try await ada.users.profile()
            let checkIn = store(CheckInFeature.State(user: user), CheckInFeature(), device: ada)
            await checkIn.send(.checkInButtonTapped)
            await checkIn.receive(\.checkInResponse.success)
            let status = try await ada.checkIns(queue: CheckInQueue()).status()
            #expect(checkIn.state.lastCheckIn == status.lastCheckInAt)
            #expect(checkIn.state.nextCheckInDue == status.deadline)
            await checkIn.skipInFlightEffects(strict: false)
        }
    }

    /// Ada (Bob watches over her) through the clients, ready for an incident.
    func linked(_ world: TestWorld, _ server: URL) async throws -> (ada: Device, adaUser: User, bob: Device, bobUser: User) {
        let (ada, adaUser) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900791")
        let (bob, bobUser) = try await Device.signUp(world, server: server, first: "Bob", phone: "+447700900792")
        _ = try await ada.contacts.add(try await bob.contacts.contactCode().code, .responder)
        let request = try #require(try await bob.contacts.requests().incoming.first)
        _ = try await bob.contacts.acceptRequest(request.id, request.roles)
        return (ada, adaUser, bob, bobUser)
    }

    @Test func bobSaysOnItAndAdasIncidentScreenShowsItLive() async throws {
        let world = try await TestWorld()
        try await world.serve { @MainActor server in
            let (ada, adaUser, bob, bobUser) = try await linked(world, server)
            let incident = try await ada.alerts.raise()

            // Ada's own incident screen, following the event stream.
            let adaScreen = store(
                IncidentFeature.State(incidentID: incident.id, viewerID: adaUser.id), IncidentFeature(), device: ada)
            await adaScreen.send(.task)
            await adaScreen.receive(\.reportResponse.success)
            #expect(adaScreen.state.acknowledgedByName == nil)
            #expect(adaScreen.state.report?.recipients.map(\.userID) == [bobUser.id])
            // Her stream is live once an event of hers arrives: she checks in (the alert stays on).
            _ = try await ada.checkIns(queue: CheckInQueue()).checkIn(CheckInID(UUID()), Date())
            await adaScreen.receive(\.streamEvent, timeout: Self.timeout)

            // Bob says "I'm on it" from his.
            let bobScreen = store(
                IncidentFeature.State(incidentID: incident.id, viewerID: bobUser.id), IncidentFeature(), device: bob)
            await bobScreen.send(.task)
            await bobScreen.receive(\.reportResponse.success)
            await bobScreen.send(.acknowledgeButtonTapped)
            await bobScreen.receive(\.acknowledgeResponse.success)
            await bobScreen.skipInFlightEffects(strict: false)

            // Ada's screen learns it from the stream, without her doing anything (earlier events
            // of the alert may still be on their way: each reloads the report).
            for _ in 0..<10 where adaScreen.state.acknowledgedByName == nil {
                await adaScreen.receive(\.reportResponse.success, timeout: Self.timeout)
            }
            #expect(adaScreen.state.acknowledgedByName == "Bob Tester")
            await adaScreen.skipInFlightEffects(strict: false)
        }
    }

    @Test func aDrillsOutcomesArriveAndTheTimelineVerifiesAndExports() async throws {
        let world = try await TestWorld()
        try await world.serve { @MainActor server in
            let (ada, _, _, _) = try await linked(world, server)
            let exported = LockIsolated<Data?>(nil)
            let settings = ada.settings
            func withSettings(_ values: inout DependencyValues) {
                values.settingsClient = settings
                values.fileExportClient.export = { data, name in
                    exported.setValue(data)
                    return URL(fileURLWithPath: "/exports/\(name)")
                }
            }

            // The drill is queued; a delivery worker (the log channel) sends it while the
            // feature watches, and its next read shows the outcome.
            let drill = store(DrillFeature.State(), DrillFeature(), device: ada, withSettings)
            await drill.send(.runButtonTapped)
            await drill.receive(\.runResponse.success)
            #expect(drill.state.isWatching)
            let worker = OutboxWorker(
                store: StoreOutbox(core: world.core), registry: ChannelRegistry([LogChannel(logger: Logger(label: "drill"))]),
                owner: "drill-test", now: { world.clock.now })
            while try await worker.runOnce() > 0 {}
            // Reads made before the worker recorded the outcome say "queued"; on a loaded machine
            // the worker can take several poll intervals, and those reads wait in line. Read on
            // as the feature does (it stops after `watchFor`), until one has the outcome.
            let polls = Int(DrillFeature.watchFor / DrillFeature.pollInterval)
            for _ in 0..<polls where !drill.state.isSettled {
                await drill.receive(\.drillUpdated.success, timeout: Self.timeout)
            }
            #expect(drill.state.isSettled)
            #expect(drill.state.report?.recipients.first?.deliveries.map(\.status) == [.delivered])
            #expect(!drill.state.isWatching)

            // The timeline: its first page, the server's verdict, and an export of all of it.
            let timeline = store(TimelineFeature.State(), TimelineFeature(), device: ada, withSettings)
            await timeline.send(.task)
            await timeline.receive(\.pageResponse.success)
            #expect(!timeline.state.entries.isEmpty)
            await timeline.send(.verifyButtonTapped)
            await timeline.receive(\.verifyResponse.success)
            #expect(timeline.state.verification?.valid == true)
            #expect(timeline.state.verification?.entries == timeline.state.entries.count)
            await timeline.send(.exportButtonTapped)
            await timeline.receive(\.exportResponse.success)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let entries = try decoder.decode([TimelineEntry].self, from: try #require(exported.value))
            #expect(entries.map(\.sequence) == timeline.state.entries.map(\.sequence))
        }
    }
}
