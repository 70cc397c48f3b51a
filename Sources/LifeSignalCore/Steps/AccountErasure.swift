import Foundation
import LifeSignalModels
import LifeSignalStore

extension ServiceCore {
    /// What a deleted person is called in the notifications other people keep.
    static let formerContactName = "a former contact"

    /// Part of deleting an account, in its transaction: the person's name becomes "a former
    /// contact" and their emergency note is dropped in every notification other people keep.
    func eraseFromOthersNotifications(_ user: User, tx: StoreTransaction) async throws {
        let name = Self.displayName(of: user)
        let note = user.emergencyNote.trimmingCharacters(in: .whitespacesAndNewlines)
        var changed: [NotificationText] = []
        for text in try await tx.notifications.othersMentioning(user.id) {
            let rewritten = NotificationText(
                id: text.id, title: Self.erase(name: name, note: note, in: text.title),
                body: Self.erase(name: name, note: note, in: text.body))
            if rewritten != text { changed.append(rewritten) }
        }
        try await tx.notifications.rewriteTexts(changed)
    }

    /// `text` without `note` (and the space before it) and with `name`, where it stands as
    /// whole words, replaced by "a former contact" ("A former contact" opening the text).
    static func erase(name: String, note: String, in text: String) -> String {
        var text = text
        if !note.isEmpty {
            text = text.replacingOccurrences(of: " " + note, with: "").replacingOccurrences(of: note, with: "")
        }
        guard !name.isEmpty else { return text }
        var out = ""
        var rest = text[...]
        while let found = rest.range(of: name) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let wholeWord =
                !(before?.isLetter ?? false) && !(before?.isNumber ?? false)
                && !(after?.isLetter ?? false) && !(after?.isNumber ?? false)
            out += rest[..<found.lowerBound]
            if wholeWord {
                out += out.isEmpty ? "A former contact" : formerContactName
            } else {
                out += rest[found]
            }
            rest = rest[found.upperBound...]
        }
        return out + rest
    }
}
