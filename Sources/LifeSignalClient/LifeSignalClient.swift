/// Dependency clients of the LifeSignal app.
