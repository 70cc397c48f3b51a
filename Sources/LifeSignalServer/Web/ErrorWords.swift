import LifeSignalCore
import LifeSignalModels

extension WebController {
    /// A refusal of the service as a page says it: in the reader's words for the refusals whose
    /// words the catalogue has (found by the core's English, which carries no key yet), else
    /// the core's English as it is.
    static func said(_ error: ServiceError) -> String {
        if error.code == .codeRecentlySent, let wait = error.retryAfter {
            return say("web.error.codeRecentlySent", ["seconds": String(wait)])
        }
        return knownRefusals[error.message].map { say($0) } ?? error.message
    }

    /// The core's English refusals without data in them, and their catalogue keys.
    static let knownRefusals: [String: String] = [
        "That code has expired. Ask for a new one.": "web.error.codeExpired",
        "Too many codes were asked for. Please wait an hour and try again.": "web.error.tooManyCodes",
        "Another account uses that number.": "web.error.phoneTaken",
        "No one has that code. Check it and try again.": "web.error.noOneHasCode",
        "That is your own code.": "web.error.ownCode",
        "This person declined your last request. You can ask again later.": "web.error.declinedLast",
        "That person is not one of your contacts.": "web.error.notAContact",
        "That ping doesn't exist.": "web.contacts.noPing",
        "That ping was already answered or cleared.": "web.error.pingDone",
        "You already pinged them. Wait for their answer or clear the ping.": "web.error.alreadyPinged",
        "We couldn't text or call that number. Check it and try again.": "web.error.textAndCallFailed",
        "We couldn't send a text to that number. Check it, or ask for a call instead.": "web.error.textFailed",
        "We couldn't call that number. Check it, or ask for a text instead.": "web.error.callFailed",
        "That request was already answered.": "web.error.requestAnswered",
    ]
}
