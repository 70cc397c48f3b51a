extension Migration {
    /// A long plan's check-ins: `plans.check_in_hours` (12–72, null for a plan with only its due
    /// time) and `plans.check_in_by`, the next check-in it asks for while that comes before
    /// `due_at` (null once only the due time is left). Every existing plan has neither.
    static let m0025PlanCheckIns = Migration(
        name: "plan_check_ins",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE plans ADD COLUMN check_in_hours BIGINT;
        ALTER TABLE plans ADD COLUMN check_in_by BIGINT;
        """
}
