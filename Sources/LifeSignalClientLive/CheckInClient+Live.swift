import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension CheckInClient: DependencyKey {
    public static var liveValue: CheckInClient {
        .live(api: .fromEnvironment(), queue: CheckInQueue(file: CheckInQueue.defaultFile))
    }

    /// Check-ins over the API. A check-in that gets no answer is queued (same id) and sent
    /// again by `flushPending`, and before every later check-in.
    public static func live(api: APIClient, queue: CheckInQueue, source: CheckIn.Source = .app) -> CheckInClient {
        @Sendable func send(_ item: PendingCheckIn) async throws -> CheckInResult {
            try await api.send(
                Operations.checkIn,
                body: CheckInBody(id: item.id, clientAt: item.clientAt, source: item.source, callMe: item.callMe ? true : nil))
        }

        @Sendable func flush() async throws -> [CheckInResult] {
            var results: [CheckInResult] = []
            for item in await queue.pending {
                do {
                    results.append(try await send(item))
                    try await queue.remove(item.id)
                } catch let error as APIError where error.isOffline || error.isUnauthorized || (error.status ?? 0) >= 500 {
                    // Still worth sending later: no answer, no session yet, or a server fault.
                    throw error
                } catch is APIError {
                    // The server refused this check-in for good (it answered 4xx): keeping it
                    // would block every later one.
                    try await queue.remove(item.id)
                }
            }
            return results
        }

        @Sendable func checkIn(_ item: PendingCheckIn) async throws -> CheckInOutcome {
            // Older queued check-ins go first, so the server sees them in order.
            if !(await queue.pending.isEmpty) { _ = try? await flush() }
            do {
                return .recorded(try await send(item))
            } catch let error as APIError where error.isOffline {
                try await queue.enqueue(item)
                return .queued(item)
            }
        }

        return CheckInClient(
            checkIn: { id, clientAt in try await checkIn(PendingCheckIn(id: id, clientAt: clientAt, source: source)) },
            callMe: { id, clientAt in try await checkIn(PendingCheckIn(id: id, clientAt: clientAt, source: source, callMe: true)) },
            status: { try await api.send(Operations.getStatus) },
            history: { before, limit in
                try await api.send(Operations.listCheckIns, CheckInListQuery(before: before, limit: limit))
            },
            pending: { await queue.pending },
            flushPending: { try await flush() },
            addTime: { minutes in try await api.send(Operations.addTime, body: AddTimeBody(minutes: minutes)) }
        )
    }
}
