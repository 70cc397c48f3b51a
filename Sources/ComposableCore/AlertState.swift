/// An alert as data: a title, an optional message and the buttons, each of which may send an
/// action of the presenting feature. Mirrors TCA's `AlertState`, with plain strings for text.
///
/// An alert is presented like any other destination, usually as one case of a `Destination`
/// enum, and its button actions arrive wrapped like any presented child's:
///
/// ```swift
/// @CasePathable enum State: Equatable { case alert(AlertState<Alert>) … }
/// @CasePathable enum Action: Equatable { case alert(Alert) … }
/// …
/// case .destination(.presented(.alert(.confirmDeletion))):  // the parent reacts
/// ```
///
/// An alert is ``EphemeralState``: the `ifLet` that presents it dismisses it after any of its
/// actions, and a button without an action dismisses it through `.dismiss`.
public struct AlertState<Action>: EphemeralState {
    /// The headline.
    public var title: String
    /// The text under the headline, if any.
    public var message: String?
    /// The buttons, in order. Empty means the platform's single "OK", which dismisses.
    public var buttons: [ButtonState<Action>]

    public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
        self.title = title
        self.message = message
        self.buttons = buttons
    }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}

/// One button of an alert: what it says, its role, and the action it sends when tapped.
public struct ButtonState<Action> {
    /// How the platform styles and places a button.
    public enum Role: Hashable, Sendable {
        /// Backs out; a platform puts it last and also "taps" it when the alert is dismissed.
        case cancel
        /// Destroys something: shown in red.
        case destructive
    }

    public var label: String
    public var role: Role?
    /// Sent to the presenting feature when tapped; `nil` only dismisses the alert.
    public var action: Action?

    public init(_ label: String, role: Role? = nil, action: Action? = nil) {
        self.label = label
        self.role = role
        self.action = action
    }

    /// A button that backs out, sending `action` if given.
    public static func cancel(_ label: String, action: Action? = nil) -> Self {
        Self(label, role: .cancel, action: action)
    }

    /// A button that destroys something, sending `action` if given.
    public static func destructive(_ label: String, action: Action? = nil) -> Self {
        Self(label, role: .destructive, action: action)
    }

    /// What a tap on this button sends to the presenting feature: its action as a presented
    /// child's (embedded with `toDestinationAction`, such as `Destination.Action.alert`), or
    /// `.dismiss` when it has none.
    public func tapped<DestinationAction>(
        _ toDestinationAction: (Action) -> DestinationAction
    ) -> PresentationAction<DestinationAction> {
        self.action.map { .presented(toDestinationAction($0)) } ?? .dismiss
    }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

/// State presented for one exchange only, such as an alert: the ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``
/// that presents it dismisses it after it sends any action, unless the parent has presented
/// something else in response. An enum destination counts when its current case holds one.
public protocol EphemeralState {}

/// Whether `state` is ephemeral, or is an enum case whose value is.
func isEphemeral(_ state: Any) -> Bool {
    if state is any EphemeralState { return true }
    let mirror = Mirror(reflecting: state)
    guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return false }
    return payload is any EphemeralState
}
