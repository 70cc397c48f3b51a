import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// What the person who asked for a call reads afterwards, in her words, wherever she asked
/// (the web, the app, a text, the command line): who was asked, that she had asked already
/// today, or that nobody watches over her.
extension CallRequest {
    public func sentence(_ words: Words) -> String {
        switch outcome {
        case .asked: words("callRequest.result.asked", ["names": words.list(told)])
        case .alreadyAsked: words("callRequest.result.already")
        case .nobody: words("callRequest.result.nobody")
        }
    }
}
