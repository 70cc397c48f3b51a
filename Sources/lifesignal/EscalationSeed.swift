import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import Logging

extension EscalationBench {
    /// The population of `bench escalation`, written straight to the store, many rows per
    /// statement (a million people in about a minute, also on PostgreSQL).
    ///
    /// Person `i < due` last checked in one rhythm (24 h) before `dueAt`, with no reminder and
    /// no grace: her incident opens at `dueAt`. Person `k × due + i` is the responder of person
    /// `i` on step `k` of her ladder (1-based; one step: everyone at once, no ladder saved);
    /// `responders` past the steps are on the last one. The next `reminders` people have a
    /// reminder 30 minutes before a deadline half an hour after `dueAt`: it is due at `dueAt`
    /// too. Everyone else checked in an hour before `dueAt`. With `webhook`, each responder has
    /// a webhook channel to that URL with its own signing secret.
    ///
    /// The engine takes people due at the same instant in the order they were stored, so the
    /// due people and the reminded ones are stored alternately: neither kind goes first.
    static func seed(
        users: Int, due: Int, reminders: Int = 0, dueAt: Date, path: String, webhook: String? = nil, ladderSteps: Int = 1,
        responders: Int? = nil
    ) async throws {
        let perPerson = responders ?? ladderSteps
        let store = try await Store.open(path, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let created = dueAt.addingTimeInterval(-2 * 86400)
        let firstReminded = (perPerson + 1) * due
        let ids = (0..<firstReminded).map { _ in UserID(UUID()) }
        let order = SeedOrder(due: due, reminded: reminders, firstReminded: firstReminded)
        let chunk = 20_000
        for first in stride(from: 0, to: users, by: chunk) {
            let rows = (first..<min(first + chunk, users)).map { position in
                let i = order.index(at: position)
                let isDue = i < due
                let isReminded = i >= firstReminded && i < firstReminded + reminders
                let lastCheckIn =
                    isDue
                    ? dueAt.addingTimeInterval(-86400)
                    : isReminded ? dueAt.addingTimeInterval(1800 - 86400) : dueAt.addingTimeInterval(-3600)
                let user = User(
                    id: i < firstReminded ? ids[i] : UserID(UUID()), phone: String(format: "+1555%07d", i), firstName: "Bench",
                    lastName: "\(i)", schedule: .interval(seconds: 86400),
                    reminders: isDue ? .none : isReminded ? .thirtyMinutes : .default, graceMinutes: isDue ? 0 : 10,
                    lastCheckInAt: lastCheckIn, createdAt: created, contactCode: String(format: "bench%011d", i), isOnboarded: true)
                return NewUser(
                    user: user, deadline: Deadline.of(user),
                    nextActionAt: EscalationPlan.nextActionAt(for: user, stepsDone: 0, now: created))
            }
            try await store.write { tx in try await tx.people.insert(rows) }
        }
        let linkChunk = 5_000
        for first in stride(from: 0, to: due, by: linkChunk) {
            try await store.write { tx in
                var links: [LinkRecord] = []
                var channels: [NewChannel] = []
                for i in first..<min(first + linkChunk, due) {
                    for k in 1...perPerson {
                        links.append(LinkRecord(userID: ids[i], contactID: ids[k * due + i], roles: .responder, addedAt: created))
                        if let webhook {
                            let channel = Channel(
                                id: ChannelID(UUID()), userID: ids[k * due + i], kind: .webhook, address: webhook, priority: 0,
                                createdAt: created, verifiedAt: created)
                            channels.append(NewChannel(channel: channel, signingSecret: webhookSecret))
                        }
                    }
                }
                try await tx.links.insert(links)
                try await tx.channels.insert(channels)
                guard ladderSteps > 1 else { return }
                for i in first..<min(first + linkChunk, due) {
                    let responders = (1...perPerson).map { ids[$0 * due + i] }
                    let ladder = Ladder(
                        steps: (0..<ladderSteps).map { k in
                            Ladder.Step(
                                responders: k == ladderSteps - 1 ? Array(responders[k...]) : [responders[k]],
                                waitMinutes: k == 0 ? 0 : 15)
                        }, version: 1)
                    _ = try await tx.ladders.save(ids[i], ladder, expected: 0, at: created)
                }
            }
        }
        await store.close()
    }
}

/// The order people are stored in: due and reminded people alternately, then the rest of
/// whichever is longer, then the responders, then everyone else.
struct SeedOrder {
    var due: Int
    var reminded: Int
    /// The index of the first reminded person (after the due people and their responders).
    var firstReminded: Int

    func index(at position: Int) -> Int {
        let paired = min(due, reminded)
        if position < 2 * paired { return position % 2 == 0 ? position / 2 : firstReminded + position / 2 }
        var p = position - 2 * paired
        if p < due - paired { return paired + p }
        p -= due - paired
        if p < reminded - paired { return firstReminded + paired + p }
        p -= reminded - paired
        if p < firstReminded - due { return due + p }
        p -= firstReminded - due
        return firstReminded + reminded + p
    }
}
