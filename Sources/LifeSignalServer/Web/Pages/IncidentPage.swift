import LifeSignalCore
import LifeSignalModels

/// One incident: what it is, what a responder can do, and who was told on which channel.
struct IncidentPage: WebPage {
    static let template = "incident"
    let title: String
    let id: String
    let userID: String
    let name: String
    let firstName: String
    let note: String?
    /// "SOS alert" or "Missed check-in".
    let kind: String
    let isSOS: Bool
    let since: String
    let open: Bool
    let resolved: String?
    let resolution: String?
    let acknowledgedBy: String?
    let acknowledgedByMe: Bool
    let isMine: Bool
    let isResponder: Bool
    /// The number a responder can call or text, while the incident is open.
    let phone: String?
    /// What actually happened to each alert, in words, while the incident is open.
    let summary: ToldSummary?
    let recipients: [RecipientView]
    let checkInID: String

    struct ToldSummary {
        let lines: [ResponderLine]
    }
}

/// Everything sent to one person (for an incident or a drill), delivery by delivery.
struct RecipientView {
    let name: String
    let deliveries: [DeliveryView]
    let none: Bool

    init(name: String, deliveries: [DeliveryProof]) {
        self.name = name
        self.deliveries = deliveries.map(DeliveryView.init)
        none = deliveries.isEmpty
    }
}

struct DeliveryView {
    let channel: String
    let status: String
    let when: String
    let reason: String?
    let failed: Bool

    init(_ delivery: DeliveryProof) {
        channel = WebController.channelLabels[delivery.channel] ?? delivery.channel.rawValue
        status = delivery.status.rawValue
        when = WebController.formatDate(delivery.updatedAt)
        reason = delivery.reason?.nonEmpty
        failed = delivery.status == .failed
    }
}
