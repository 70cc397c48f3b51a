import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The person's escalation ladder: who is told first, who next, after how long.
@DependencyClient
public struct LadderClient: Sendable {
    /// Her ladder (the default, everyone at once, when she never saved one).
    public var ladder: @Sendable () async throws -> Ladder
    /// Saves a new ladder made from `change.version`; refused when it changed since.
    public var save: @Sendable (_ change: LadderChange) async throws -> Ladder
    /// The ladder with real times for her next deadline.
    public var preview: @Sendable () async throws -> LadderPreview
    /// Marks (or unmarks) one of her responders as holding her key.
    public var setKeyHolder: @Sendable (_ contact: UserID, _ keyHolder: Bool) async throws -> Contact
}

extension LadderClient: TestDependencyKey {
    public static let testValue = LadderClient()

    public static let previewValue = LadderClient(
        ladder: { .default },
        save: { change in Ladder(steps: change.steps, sosClimbs: change.sosClimbs ?? false, version: change.version + 1) },
        preview: {
            LadderPreview(deadline: Date(), steps: [], exhaustedAt: nil, sentence: "If you miss 09:30: 09:40 everyone")
        },
        setKeyHolder: { contact, keyHolder in
            var preview = Contact.preview
            preview.keyHolder = keyHolder
            return preview
        }
    )
}

extension DependencyValues {
    public var ladderClient: LadderClient {
        get { self[LadderClient.self] }
        set { self[LadderClient.self] = newValue }
    }
}
