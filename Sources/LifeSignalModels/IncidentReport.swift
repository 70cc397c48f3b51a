import Foundation

/// An incident with the proof of who was reached.
public struct IncidentReport: Sendable, Hashable, Codable {
    public var incident: Incident
    public var user: ContactPreview
    public var acknowledgedByName: String?
    public var recipients: [Recipient]
    /// Her device links' calls while the alert was open, which did not end it (oldest first).
    public var activity: [DeviceActivity]
    /// The plan she is late back from (a `plan_overdue` incident): headline, times and
    /// instruction; its details are opened apart, one recorded reading at a time.
    public var plan: PlanBrief?

    public struct Recipient: Sendable, Hashable, Codable {
        public var userID: UserID
        public var name: String
        public var deliveries: [DeliveryProof]

        public init(userID: UserID, name: String, deliveries: [DeliveryProof]) {
            self.userID = userID
            self.name = name
            self.deliveries = deliveries
        }
    }

    public init(
        incident: Incident, user: ContactPreview, acknowledgedByName: String?, recipients: [Recipient],
        activity: [DeviceActivity] = [], plan: PlanBrief? = nil
    ) {
        self.incident = incident
        self.user = user
        self.acknowledgedByName = acknowledgedByName
        self.recipients = recipients
        self.activity = activity
        self.plan = plan
    }
}
