import ComposableCore
import LifeSignalLanguage
import LifeSignalModels

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

extension AlertState {
    /// Pausing while her responders are alerted about a missed check-in: end that alert (she
    /// is fine), or leave it open to them; `pause` is the button's action for her choice. In
    /// the web app's words. The profile's pause and days off both ask this.
    public static func pausingWhileAlertOpen(_ pause: (OpenIncidentChoice) -> Action) -> Self {
        let w = Words.app
        return AlertState(
            title: w("web.settings.openIncidentQuestion"),
            buttons: [
                ButtonState(w("web.settings.openIncidentResolve"), action: pause(.resolve)),
                ButtonState(w("web.settings.openIncidentKeep"), action: pause(.keepOpen)),
                .cancel(w("app.cancel")),
            ])
    }
}
