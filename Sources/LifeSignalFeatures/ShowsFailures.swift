import ComposableCore

/// A destination with an `alert` case: what a screen presents over itself when something failed.
///
/// The enum's `case alert(AlertState<…>)` is the witness, so a destination conforms with an
/// empty extension.
public protocol ShowsAlerts {
    associatedtype AlertAction
    static func alert(_ alert: AlertState<AlertAction>) -> Self
}

/// A screen's state whose `destination` can show a failure (``AlertState/failure(_:)``).
public protocol ShowsFailures {
    associatedtype Presented: ShowsAlerts
    var destination: Presented? { get set }
}

extension ShowsFailures {
    /// What `check` reads from this state, or nil with its error shown as the screen's failure
    /// alert: how a screen checks what she typed before it sends anything.
    ///
    /// ```swift
    /// guard let phone = state.checked({ try $0.phone.e164() }) else { return .none }
    /// ```
    public mutating func checked<Value>(_ check: (Self) throws -> Value) -> Value? {
        do {
            return try check(self)
        } catch {
            destination = .alert(.failure(UserFacingError(error)))
            return nil
        }
    }

    /// Whether `check` passes on this state; when it throws, its error is shown as the screen's
    /// failure alert (``checked(_:)`` for a check with nothing to read).
    public mutating func passes(_ check: (Self) throws -> Void) -> Bool {
        checked(check) != nil
    }
}

extension AlertDestination.State: ShowsAlerts {}
extension DaysOffFeature.Destination.State: ShowsAlerts {}
extension HomeFeature.Destination.State: ShowsAlerts {}
extension ProfileFeature.Destination.State: ShowsAlerts {}
extension SettingsFeature.Destination.State: ShowsAlerts {}
