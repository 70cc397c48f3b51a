extension Migration {
    /// `deliveries.pace_rank`: where a delivery stands when a paced channel's slots are short
    /// (0 alerts, 1 daily calls and reminders, 2 the rest: `CallPacing.rank` of its
    /// notification's kind, stored with the delivery), and the index `deliveries_paced` that
    /// gives a paced channel's due deliveries in that order. A paced claim read its rank
    /// through the notification row of every due delivery and sorted them all on each claim
    /// (100,000 due calls: ~100 ms on SQLite, holding the writer); it now reads the first rows
    /// of the index. Deliveries queued before this get their rank from their notification
    /// here, with the rule as it stands at this migration.
    static let m0026DeliveryPaceRank = Migration(
        name: "delivery_pace_rank",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE deliveries ADD COLUMN pace_rank BIGINT NOT NULL DEFAULT 2;
        UPDATE deliveries SET pace_rank = COALESCE((SELECT CASE
            WHEN n.type IN ('non_responsive', 'incident_opened', 'incident_acknowledged', 'incident_resolved',
                'manual_alert', 'manual_alert_cleared', 'delivery_failed', 'alert_sent', 'sealed_details_read',
                'daily_call_failed', 'plan_late') THEN 0
            WHEN n.type IN ('daily_call', 'reminder') THEN 1
            ELSE 2 END
            FROM notifications n WHERE n.id = deliveries.notification_id), 3)
        WHERE next_attempt_at IS NOT NULL;
        CREATE INDEX deliveries_paced ON deliveries (channel, pace_rank, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
        """
}
