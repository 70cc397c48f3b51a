import ComposableCore
import LifeSignalLanguage

extension AlertState {
    /// A failure as a person sees it: the error's sentence and one "OK" that dismisses it.
    ///
    /// Every feature shows its errors this way, as the `alert` case of its `destination`
    /// (`state.destination = .alert(.failure(error))`); what the code acts on (the error's
    /// `reason`) is decided before the alert, so the alert keeps only what is shown.
    /// Its button is in the app's language (``Words/app``).
    public static func failure(_ error: UserFacingError) -> Self {
        AlertState(title: error.message, buttons: [.cancel(Words.app("app.ok"))])
    }
}
