import LifeSignalLanguage
import LifeSignalModels

/// The sentences that tell people who would watch whom. Every notice about a link, a request
/// or a role says it from the reader's side, in plain words and the reader's language, so
/// nobody is told the opposite of what a link grants.
public enum ConsentWording {
    /// What a request asking for `roles` (the sender's side) would grant, told to its recipient.
    public static func ask(from sender: String, roles: ContactRoles, words: Words = .english) -> (title: String, body: String) {
        let which =
            switch (roles.isResponder, roles.isDependent) {
            case (true, true): "eachOther"
            case (false, true): "watchYou"
            default: "watchThem"
            }
        return (words("consent.ask.\(which).title", ["name": sender]), words("consent.ask.\(which).body", ["name": sender]))
    }

    /// What a link carrying `roles` (the reader's side) grants, with `other` the other person.
    static func grants(_ other: String, roles: ContactRoles, words: Words = .english) -> String {
        var sentences: [String] = []
        if roles.isResponder { sentences.append(words("consent.grants.watchesYou", ["name": other])) }
        if roles.isDependent { sentences.append(words("consent.grants.youWatch", ["name": other])) }
        return sentences.joined(separator: " ")
    }

    /// Told to whoever sent a request once it is accepted.
    static func accepted(by recipient: String, roles: ContactRoles, words: Words = .english) -> (title: String, body: String) {
        (words("consent.accepted.title", ["name": recipient]), grants(recipient, roles: roles, words: words))
    }

    /// Told to the other person when `remover` takes roles (their side) off the link.
    static func removed(
        by remover: String, roles: ContactRoles, linkEnds: Bool, words: Words = .english
    ) -> (title: String, body: String) {
        var sentences: [String] = []
        if roles.isDependent { sentences.append(words("consent.removed.noLongerWatchesYou", ["name": remover])) }
        if roles.isResponder { sentences.append(words("consent.removed.youNoLongerWatch", ["name": remover])) }
        if linkEnds { sentences.append(words("consent.removed.unlinked")) }
        let title = words(linkEnds ? "consent.removed.title" : "consent.changed.title", ["name": remover])
        return (title, sentences.joined(separator: " "))
    }

    /// Told once to each side of a link made before consent existed.
    static func existingLink(_ other: String, roles: ContactRoles, words: Words = .english) -> (title: String, body: String) {
        (
            words("consent.existing.title", ["name": other]),
            grants(other, roles: roles, words: words) + " " + words("consent.existing.change")
        )
    }
}
