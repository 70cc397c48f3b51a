import LifeSignalCore
import LifeSignalModels

extension WebController {
    /// A refusal of the service as a page says it: its catalogue words in the reader's
    /// language, numbers and names in place; a refusal without words in its English.
    static func said(_ error: ServiceError) -> String {
        error.message(in: ReaderClock.current.words)
    }
}
