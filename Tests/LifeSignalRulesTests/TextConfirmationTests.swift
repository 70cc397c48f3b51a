import Foundation
import LifeSignalRules
import Testing

/// A text that acts only when sent twice: the first opens a window, another message inside it
/// confirms, the same message again never does, and an expired window opens anew.
struct TextConfirmationTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        arguments: [
            (nil, nil, "m1", TextConfirmation.Step.opened(until: now.addingTimeInterval(300))),
            (now.addingTimeInterval(-1), "m0", "m1", .opened(until: now.addingTimeInterval(300))),
            (now.addingTimeInterval(60), "m1", "m1", .waiting),
            (now.addingTimeInterval(60), nil, "m1", .waiting),
            (now.addingTimeInterval(60), "m0", "m1", .confirmed),
        ] as [(Date?, String?, String, TextConfirmation.Step)])
    func step(pendingUntil: Date?, askedBy: String?, messageID: String, expected: TextConfirmation.Step) {
        #expect(
            TextConfirmation.step(pendingUntil: pendingUntil, askedBy: askedBy, messageID: messageID, now: Self.now, window: 300)
                == expected)
    }
}
