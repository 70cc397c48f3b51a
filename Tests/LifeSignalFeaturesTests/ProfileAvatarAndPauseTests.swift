import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ProfileAvatarAndPauseTests {
    /// The smallest bytes `Validation.avatar` takes for a PNG: signature, then an IHDR chunk.
    static let png = Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + Array(repeating: 0, count: 13))

    @Test func uploadAndRemoveAnAvatar() async {
        let uploaded = LockIsolated<[Data]>([])
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.userClient.uploadAvatar = { data in uploaded.withValue { $0.append(data) } }
            $0.userClient.deleteAvatar = {}
        }
        var withAvatar = Fixtures.user
        withAvatar.hasAvatar = true
        // Nothing to remove yet.
        await store.send(.removeAvatarButtonTapped)
        await store.send(.avatarPicked(Self.png)) { $0.isBusy = true }
        await store.receive(.avatarResponse(.success(true))) {
            $0.isBusy = false
            $0.user.hasAvatar = true
        }
        await store.receive(.delegate(.userChanged(withAvatar)))
        #expect(uploaded.value == [Self.png])
        await store.send(.removeAvatarButtonTapped) { $0.isBusy = true }
        await store.receive(.avatarResponse(.success(false))) {
            $0.isBusy = false
            $0.user.hasAvatar = false
        }
        await store.receive(.delegate(.userChanged(Fixtures.user)))
    }

    @Test func notAnImageIsRejectedWithoutUploading() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) { ProfileFeature() }
        await store.send(.avatarPicked(Data("GIF89a".utf8))) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "The picture must be a PNG or JPEG of at most 1 MB.", reason: .invalid(field: "avatar"))))
        }
    }

    @Test func uploadFailureIsShown() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.userClient.uploadAvatar = { _ in
                throw APIError.server(status: 413, code: .invalidAvatar, message: "That picture is too big.", field: nil)
            }
        }
        await store.send(.avatarPicked(Self.png)) { $0.isBusy = true }
        await store.receive(\.avatarResponse.failure) {
            $0.isBusy = false
            $0.destination = .alert(.failure(UserFacingError(message: "That picture is too big.", reason: .refused(.invalidAvatar))))
        }
    }

    @Test func pauseAndResume() async {
        let until = Fixtures.now.addingTimeInterval(7 * 86400)
        var paused = Fixtures.status(lastCheckIn: Fixtures.now, deadline: until.addingTimeInterval(86400), state: .paused)
        paused.pausedUntil = until
        let resumed = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400))
        let requests = LockIsolated<[Date?]>([])
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: { [paused] in
            $0.date = .constant(Fixtures.now)
            $0.userClient.setPause = { until, _ in
                requests.withValue { $0.append(until) }
                return until == nil ? resumed : paused
            }
        }
        // Not paused: nothing to resume.
        await store.send(.resumeButtonTapped)
        await store.send(.pauseUntilPicked(until)) {
            $0.isBusy = true
            $0.pendingPause = until
        }
        await store.receive(.pauseResponse(.success(paused))) {
            $0.isBusy = false
            $0.pausedUntil = until
        }
        await store.receive(.delegate(.statusChanged(paused)))
        await store.send(.resumeButtonTapped) {
            $0.isBusy = true
            $0.pendingPause = nil
        }
        await store.receive(.pauseResponse(.success(resumed))) {
            $0.isBusy = false
            $0.pausedUntil = nil
        }
        await store.receive(.delegate(.statusChanged(resumed)))
        #expect(requests.value == [until, nil])
    }

    @Test func aPauseInThePastOrTooFarIsRejected() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
        }
        let error = UserFacingError(
            message: "A pause must end in the future and at most 30 days after it starts.", reason: .invalid(field: "until"))
        await store.send(.pauseUntilPicked(Fixtures.now.addingTimeInterval(-60))) { $0.destination = .alert(.failure(error)) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.pauseUntilPicked(Fixtures.now.addingTimeInterval(31 * 86400))) { $0.destination = .alert(.failure(error)) }
    }

    @Test func pauseFailureIsShown() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.userClient.setPause = { _, _ in throw Fixtures.serverError }
        }
        await store.send(.pauseUntilPicked(Fixtures.now.addingTimeInterval(86400))) {
            $0.isBusy = true
            $0.pendingPause = Fixtures.now.addingTimeInterval(86400)
        }
        await store.receive(.pauseResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    @Test func pausingWhileAnAlertIsOpenAsksWhatBecomesOfItAndSendsTheAnswer() async {
        let until = Fixtures.now.addingTimeInterval(2 * 86400)
        var paused = Fixtures.status(lastCheckIn: Fixtures.now, deadline: until.addingTimeInterval(86400), state: .paused)
        paused.pausedUntil = until
        let asked = APIError.server(status: 409, code: .incidentOpen, message: "Say what becomes of the alert.", field: nil)
        let choices = LockIsolated<[OpenIncidentChoice?]>([])
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: { [paused] in
            $0.date = .constant(Fixtures.now)
            $0.userClient.setPause = { _, choice in
                choices.withValue { $0.append(choice) }
                guard choice != nil else { throw asked }
                return paused
            }
        }
        await store.send(.pauseUntilPicked(until)) {
            $0.isBusy = true
            $0.pendingPause = until
        }
        await store.receive(\.pauseResponse.failure) {
            $0.isBusy = false
            $0.destination = .alert(.pauseWhileAlertOpen(until: until))
        }
        await store.send(.destination(.presented(.alert(.pause(until: until, .keepOpen))))) {
            $0.isBusy = true
            $0.destination = nil
        }
        await store.receive(.pauseResponse(.success(paused))) {
            $0.isBusy = false
            $0.pausedUntil = until
        }
        await store.receive(.delegate(.statusChanged(paused)))
        #expect(choices.value == [nil, .keepOpen])
    }

    @Test func aPauseReachesTheCheckInTab() async {
        let until = Fixtures.now.addingTimeInterval(86400)
        var paused = Fixtures.status(lastCheckIn: Fixtures.now, deadline: until.addingTimeInterval(86400), state: .paused)
        paused.pausedUntil = until
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        await store.send(.profile(.delegate(.statusChanged(paused)))) {
            $0.checkIn.lastCheckIn = Fixtures.now
            $0.checkIn.nextCheckInDue = until.addingTimeInterval(86400)
            $0.checkIn.statusState = .paused
            $0.checkIn.pausedUntil = until
        }
    }
}
