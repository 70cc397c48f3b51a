/// The state of a feature that can be presented (a sheet, an alert, a destination), stored
/// optionally by its parent. TCA spells this `@Presents var destination: Destination.State?`
/// using a macro; here the same property wrapper is spelled out:
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var destination: Destination.State?
/// }
/// …
/// .ifLet(\.$destination, action: \.destination) { Destination() }
/// ```
///
/// Each presentation gets its own identity, so dismissing (or replacing) what is presented
/// cancels the effects of what was there before. The identity is not part of equality or of
/// the dump, so tests compare and print only the presented state.
@propertyWrapper
public struct PresentationState<State> {
    private var value: State?
    /// Identifies the current presentation; changes when something new is presented.
    private(set) var presentationID: PresentationID?

    /// Creates presentation state, presenting `wrappedValue` if it is not `nil`.
    public init(wrappedValue: State?) {
        self.value = wrappedValue
        self.presentationID = wrappedValue == nil ? nil : PresentationID.next()
    }

    /// The presented state, or `nil` when nothing is presented.
    public var wrappedValue: State? {
        get { self.value }
        set {
            // A new presentation starts when going from nothing to something, when an enum
            // destination switches case (a sheet replaced by an alert), and whenever an alert
            // is set: each alert is its own exchange, even one replacing another.
            switch (self.value, newValue) {
            case (_, nil):
                self.presentationID = nil
            case (nil, _?):
                self.presentationID = PresentationID.next()
            case (let old?, let new?):
                if isEphemeral(new) || caseName(of: old) != caseName(of: new) {
                    self.presentationID = PresentationID.next()
                }
            }
            self.value = newValue
        }
    }

    /// The wrapper itself, so `\.$destination` can be handed to `ifLet`.
    public var projectedValue: Self {
        get { self }
        set { self = newValue }
    }
}

extension PresentationState: Equatable where State: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value
    }
}

extension PresentationState: Hashable where State: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.value)
    }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomDumpRepresentable {
    public var customDumpValue: Any {
        self.value as Any
    }
}

/// A unique identity for one presentation; used as the navigation context of its effects.
struct PresentationID: Hashable, Sendable {
    private static let counter = LockIsolated(0)
    let rawValue: Int

    static func next() -> Self {
        Self(
            rawValue: counter.withValue {
                $0 += 1; return $0
            })
    }
}

/// The case of an enum value, or `nil` for a non-enum; distinguishes `.sheet(…)` from `.alert(…)`.
func caseName(of value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return nil }
    return mirror.children.first?.label ?? String(describing: value)
}
