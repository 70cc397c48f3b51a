import LifeSignalModels

/// Foundation also has a `Notification`; inside this module the name means LifeSignal's.
typealias Notification = LifeSignalModels.Notification
