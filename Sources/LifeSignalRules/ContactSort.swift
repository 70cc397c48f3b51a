import Foundation
import LifeSignalModels

/// The orders of the contact lists (the server's, and the app's when it sorts again).
extension ContactSort {
    public func dependents(_ contacts: [Contact]) -> [Contact] {
        switch self {
        case .urgency:
            contacts.sorted { lhs, rhs in
                let (l, r) = (Self.dependentRank(lhs), Self.dependentRank(rhs))
                if l != r { return l < r }
                let (ls, rs) = (lhs.status?.secondsLeft ?? .max, rhs.status?.secondsLeft ?? .max)
                if ls != rs { return ls < rs }
                return Self.byName(lhs, rhs)
            }
        case .name: contacts.sorted(by: Self.byName)
        case .dateAdded: contacts.sorted { ($0.addedAt, $0.userID) < ($1.addedAt, $1.userID) }
        }
    }

    public func responders(_ contacts: [Contact]) -> [Contact] {
        switch self {
        case .urgency:
            contacts.sorted { lhs, rhs in
                let (l, r) = (lhs.incomingPing != nil ? 0 : 1, rhs.incomingPing != nil ? 0 : 1)
                if l != r { return l < r }
                if let lp = lhs.incomingPing, let rp = rhs.incomingPing, lp.sentAt != rp.sentAt {
                    return lp.sentAt < rp.sentAt
                }
                return Self.byName(lhs, rhs)
            }
        case .name: contacts.sorted(by: Self.byName)
        case .dateAdded: contacts.sorted { ($0.addedAt, $0.userID) < ($1.addedAt, $1.userID) }
        }
    }

    static func dependentRank(_ contact: Contact) -> Int {
        switch contact.status?.state {
        case .alert: 0
        case .nonResponsive: 1
        case _ where contact.outgoingPing != nil: 2
        default: 3
        }
    }

    static func byName(_ lhs: Contact, _ rhs: Contact) -> Bool {
        let order = lhs.fullName.localizedCaseInsensitiveCompare(rhs.fullName)
        return order == .orderedSame ? lhs.userID < rhs.userID : order == .orderedAscending
    }
}
