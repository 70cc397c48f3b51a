import ComposableCore
import LifeSignalClient

extension Effect {
    /// The signed-in person's live stream (`GET /v1/events`) as actions: every event as
    /// `event`, then `ended` once it stops (nil when the server closed it, the error when it
    /// was lost). Cancelling the effect (leaving the screen) ends it without `ended`.
    static func liveEvents(
        _ client: NotificationClient,
        event: @escaping @Sendable (StreamEvent) -> Action,
        ended: @escaping @Sendable (UserFacingError?) -> Action
    ) -> Self {
        .run { send in
            do {
                for try await item in client.events() {
                    await send(event(item))
                }
                await send(ended(nil))
            } catch is CancellationError {
                return
            } catch {
                await send(ended(UserFacingError(error)))
            }
        }
    }
}

extension Effect {
    /// Runs `work` and sends what came of it: its value, or its error as a person reads it.
    /// The shape of every request a screen makes:
    /// `.catching(Action.saveResponse) { try await userClient.save(changes) }`.
    static func catching<Success: Sendable>(
        _ response: @escaping @Sendable (Result<Success, UserFacingError>) -> Action,
        _ work: @escaping @Sendable () async throws -> Success
    ) -> Self {
        .run { send in await send(response(await Result.catching(work))) }
    }
}
