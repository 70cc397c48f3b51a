import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The person's escalation ladder: who is told first, who next and after how long, who holds
/// her key, and the whole plan with real times. One form, usable without script, at 390 px
/// and by keyboard.
struct LadderRoutes: WebPageGroup {
    let pages: WebPages
    let contacts: Contacts
    let ladders: Ladders

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/profile/ladder") { _, context in
            try await signedIn(context) { caller in
                let ladder = try await ladders.ladder(caller)
                let responders = try await contacts.contacts(caller, sort: .name).responders
                let preview = try await ladders.preview(caller)
                return try await page(LadderPage(ladder: ladder, responders: responders, sentence: preview.sentence), context: context)
            }
        }
        web.post("/profile/ladder") { _, context in
            try await action(context, to: "/profile/ladder") { caller in
                let form = context.form
                let responders = try await contacts.contacts(caller, sort: .name).responders
                let count = min(max(Int(form["steps"] ?? "") ?? 1, 1), LadderRule.maxSteps)
                var steps = (0..<count).map { index in
                    // A wait that is not a number is refused by the rule, with the step named.
                    Ladder.Step(responders: [], waitMinutes: index == 0 ? 0 : Int(form["wait-\(index + 1)"] ?? "") ?? -1)
                }
                for responder in responders {
                    // A step past the last one chosen means "with everyone else".
                    if let step = Int(form["step-\(responder.userID)"] ?? ""), (1...count).contains(step) {
                        steps[step - 1].responders.append(responder.userID)
                    }
                }
                _ = try await ladders.setLadder(
                    caller, LadderChange(steps: steps, sosClimbs: form["sosClimbs"] == "1", version: Int(form["version"] ?? "") ?? 0))
                for responder in responders where (responder.keyHolder == true) != (form["key-\(responder.userID)"] == "1") {
                    _ = try await contacts.setKeyHolder(
                        caller, contact: responder.userID, keyHolder: form["key-\(responder.userID)"] == "1")
                }
                return say("web.ladder.saved")
            }
        }
    }
}

struct LadderPage: WebPage {
    static let template = "ladder"
    static let section: NavSection? = .profile
    let title = say("web.ladder.title")
    let version: Int
    let sosClimbs: Bool
    /// "If you miss 09:30: 09:40 Cleo (text, call) · …".
    let sentence: String
    let stepChoices: [Choice]
    let waits: [Wait]
    let people: [Person]

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct Wait {
        let number: Int
        let label: String
        let minutes: Int
    }

    struct Person {
        let id: String
        let name: String
        let keyHolder: Bool
        let options: [Choice]
    }

    init(ladder: Ladder, responders: [Contact], sentence: String) {
        version = ladder.version
        sosClimbs = ladder.sosClimbs
        self.sentence = sentence
        let count = ladder.steps.count
        stepChoices = (1...LadderRule.maxSteps).map { Choice(value: String($0), label: String($0), selected: $0 == count) }
        waits = (2...LadderRule.maxSteps).map { number in
            Wait(
                number: number, label: say("web.ladder.wait", ["step": String(number)]),
                minutes: number <= count ? ladder.steps[number - 1].waitMinutes : 15)
        }
        let holders = responders.filter { $0.keyHolder == true } + responders.filter { $0.keyHolder != true }
        people = holders.map { responder in
            let placed = ladder.steps.firstIndex { $0.responders.contains(responder.userID) }.map { $0 + 1 }
            return Person(
                id: responder.userID.description, name: responder.fullName, keyHolder: responder.keyHolder == true,
                options: (1...LadderRule.maxSteps).map {
                    Choice(value: String($0), label: say("web.ladder.stepN", ["step": String($0)]), selected: placed == $0)
                } + [Choice(value: "last", label: say("web.ladder.everyoneElse"), selected: placed == nil)])
        }
    }
}
