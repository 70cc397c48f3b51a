import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

extension LifeSignalService {
    /// SOS: opens a manual-alert incident at once and notifies every responder on every
    /// channel. Raising it again while it is open returns the open one.
    public func raiseAlert(_ caller: Caller) async throws -> Incident {
        try await write { tx, events in
            guard let user = try await tx.user(caller.user.id) else { throw ServiceError.unauthorized }
            if let open = try await tx.openIncidents(of: user.id).first(where: { $0.kind == .manualAlert }) {
                return open
            }
            guard let incident = try await openIncident(.manualAlert, for: user, dueAt: now, late: false, tx: tx, events: events)
            else { throw ServiceError(.conflict, code: "alert_active", "Your alert is already active.") }
            return incident
        }
    }

    /// "I'm safe": clears the caller's manual alert; responders are told.
    public func clearAlert(_ caller: Caller) async throws -> CheckInStatus {
        try await write { tx, events in
            guard let user = try await tx.user(caller.user.id) else { throw ServiceError.unauthorized }
            guard let open = try await tx.openIncidents(of: user.id).first(where: { $0.kind == .manualAlert }) else {
                throw ServiceError(.conflict, code: "no_active_alert", "You have no active alert.")
            }
            try await resolve(open, resolution: .cleared, by: user.id, user: user, tx: tx, events: events)
            return try await publishStatus(of: user, tx: tx, events: events)
        }
    }
}
