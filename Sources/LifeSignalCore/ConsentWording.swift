import LifeSignalModels

/// The sentences that tell people who would watch whom. Every notice about a link, a request
/// or a role says it from the reader's side, in plain words, so nobody is told the opposite
/// of what a link grants.
public enum ConsentWording {
    /// What a request asking for `roles` (the sender's side) would grant, told to its recipient.
    public static func ask(from sender: String, roles: ContactRoles) -> (title: String, body: String) {
        switch (roles.isResponder, roles.isDependent) {
        case (true, true):
            (
                "\(sender) asks that you watch over each other",
                "\(sender) asks that you watch over each other: each of you would see the other's status and get their alerts. Nothing is shared until you accept."
            )
        case (false, true):
            (
                "\(sender) asks to watch over you",
                "\(sender) asks to watch over you: they would see your status and get your alerts. Nothing is shared until you accept."
            )
        default:
            (
                "\(sender) asks you to watch over them",
                "\(sender) asks you to watch over them: you would see their status and get their alerts. Nothing is shared until you accept."
            )
        }
    }

    /// What a link carrying `roles` (the reader's side) grants, with `other` the other person.
    static func grants(_ other: String, roles: ContactRoles) -> String {
        var sentences: [String] = []
        if roles.isResponder { sentences.append("\(other) watches over you: they see your status and get your alerts.") }
        if roles.isDependent { sentences.append("You watch over \(other): you see their status and get their alerts.") }
        return sentences.joined(separator: " ")
    }

    /// Told to whoever sent a request once it is accepted.
    static func accepted(by recipient: String, roles: ContactRoles) -> (title: String, body: String) {
        ("\(recipient) accepted your request", grants(recipient, roles: roles))
    }

    /// Told to the other person when `remover` takes roles (their side) off the link.
    static func removed(by remover: String, roles: ContactRoles, linkEnds: Bool) -> (title: String, body: String) {
        var sentences: [String] = []
        if roles.isDependent {
            sentences.append("\(remover) no longer watches over you: they no longer see your status or get your alerts.")
        }
        if roles.isResponder {
            sentences.append("You no longer watch over \(remover): you no longer see their status or get their alerts.")
        }
        if linkEnds { sentences.append("You are no longer linked.") }
        let title = linkEnds ? "\(remover) removed you" : "\(remover) changed your link"
        return (title, sentences.joined(separator: " "))
    }

    /// Told once to each side of a link made before consent existed.
    static func existingLink(_ other: String, roles: ContactRoles) -> (title: String, body: String) {
        (
            "What your link with \(other) means",
            "\(grants(other, roles: roles)) You can change or remove this link in Contacts at any time."
        )
    }
}
