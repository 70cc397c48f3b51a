import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// Where an open alert is on the person's ladder, as the incident screen shows it: "Step 2 of 3
/// · next step at 09:30", and once nobody has said "I'm on it" after the last step, that
/// nobody has confirmed they are coming. The same fields as the status's `IncidentSummary`.
public struct LadderProgress: Equatable, Sendable {
    /// The step told last (1-based) and how many the ladder has.
    public var step: Int
    public var steps: Int
    /// When the next step is told, unless someone says "I'm on it" first; nil once someone
    /// has, or every step was told.
    public var nextStepAt: Date?
    /// When everyone was called because nobody had said "I'm on it" after the last step.
    public var exhaustedAt: Date?
    /// The line the screen shows, in the app's words and the device's zone.
    public var summary: String

    public init(step: Int, steps: Int, nextStepAt: Date?, exhaustedAt: Date?, summary: String) {
        self.step = step
        self.steps = steps
        self.nextStepAt = nextStepAt
        self.exhaustedAt = exhaustedAt
        self.summary = summary
    }

    /// The progress of `incident`'s ladder; nil when it is over, or its ladder tells everyone at
    /// once and was not exhausted (nothing to say beyond who was told).
    /// The zone is asked for only when a next step's time is shown.
    public init?(_ incident: Incident, words w: Words, timeZone: @autoclosure () -> TimeZone) {
        guard incident.isOpen, let ladder = incident.ladder, ladder.steps.count > 1 || ladder.exhaustedAt != nil else {
            return nil
        }
        step = ladder.told
        steps = ladder.steps.count
        // An "I'm on it" stops the climb: no next step while it holds.
        nextStepAt = incident.acknowledgedBy == nil ? ladder.nextStepAt : nil
        exhaustedAt = ladder.exhaustedAt
        var parts = [w("app.incident.ladder.step", ["step": String(step), "steps": String(steps)])]
        if let nextStepAt { parts.append(w("app.incident.ladder.next", ["time": Self.clock(nextStepAt, timeZone())])) }
        if exhaustedAt != nil { parts.append(w("app.incident.ladder.exhausted")) }
        summary = parts.joined(separator: " · ")
    }

    /// "09:30" in `zone`, as a 24-hour clock reads in every language the app speaks.
    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
