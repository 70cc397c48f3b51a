import Foundation

/// Both lists of the contacts screen.
public struct ContactLists: Sendable, Hashable, Codable {
    public var responders: [Contact]
    public var dependents: [Contact]

    public init(responders: [Contact], dependents: [Contact]) {
        self.responders = responders
        self.dependents = dependents
    }
}
