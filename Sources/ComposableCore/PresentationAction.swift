/// The actions of a presented child, embedded in the parent's actions:
///
/// ```swift
/// @CasePathable enum Action {
///   case destination(PresentationAction<Destination.Action>)
/// }
/// ```
///
/// `.dismiss` asks the parent's `ifLet` to dismiss the child (setting its state to `nil`),
/// which cancels the child's effects.
public enum PresentationAction<Action> {
    /// The child dismissed itself, or the UI dismissed it (a sheet swiped away).
    case dismiss
    /// An action of the presented child.
    indirect case presented(Action)
}

/// A `PresentationAction` for the actions of the reducer `R`.
public typealias PresentationActionOf<R: Reducer> = PresentationAction<R.Action>

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}

// Written by hand rather than with `@CasePathable` so that `\.destination.child` can reach
// through `.presented` like TCA's does (for `store.scope(state:action:)`).
extension PresentationAction: CasePathable {
    /// The case paths of `PresentationAction`, plus a shortcut through `presented`.
    @dynamicMemberLookup
    public struct AllCasePaths: Sendable {
        /// The `.dismiss` case.
        public var dismiss: AnyCasePath<PresentationAction, Void> {
            AnyCasePath(
                embed: { .dismiss },
                extract: {
                    guard case .dismiss = $0 else { return nil }
                    return ()
                }
            )
        }

        /// The `.presented` case.
        public var presented: AnyCasePath<PresentationAction, Action> {
            AnyCasePath(
                embed: { .presented($0) },
                extract: {
                    guard case let .presented(action) = $0 else { return nil }
                    return action
                }
            )
        }

        /// A case of the presented child's action, reached through `.presented`.
        public subscript<ChildAction>(
            dynamicMember keyPath: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildAction>>
        ) -> AnyCasePath<PresentationAction, ChildAction> where Action: CasePathable {
            Self.throughPresented(Action.allCasePaths[keyPath: keyPath])
        }

        // Kept out of the `CasePathable`-constrained subscript so the closures do not capture the
        // conformance (a non-Sendable metatype).
        private static func throughPresented<ChildAction>(
            _ casePath: AnyCasePath<Action, ChildAction>
        ) -> AnyCasePath<PresentationAction, ChildAction> {
            AnyCasePath(
                embed: { .presented(casePath.embed($0)) },
                extract: {
                    guard case let .presented(action) = $0 else { return nil }
                    return casePath.extract(from: action)
                }
            )
        }
    }

    public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
