import LifeSignalModels

/// Foundation also has a `Notification`; inside this module the name means LifeSignal's.
public typealias Notification = LifeSignalModels.Notification
