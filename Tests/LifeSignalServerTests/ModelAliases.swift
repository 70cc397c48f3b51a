import LifeSignalModels

/// Foundation also has a `Notification`; in these tests the name means LifeSignal's.
typealias Notification = LifeSignalModels.Notification
