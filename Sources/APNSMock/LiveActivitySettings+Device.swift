import APNSCore

extension MockConfiguration.LiveActivitySettings {
    /// The simulated device's configuration for these settings and the schemas read from them.
    func deviceConfiguration(schemas: [ActivitySchema]) -> LiveActivityConfiguration {
        let defaults = LiveActivityConfiguration()
        return LiveActivityConfiguration(
            schemas: schemas,
            priority10BudgetPerHour: budgetPerHour ?? defaults.priority10BudgetPerHour,
            supportsFrequentUpdates: frequentUpdates ?? false,
            issuesUpdateTokens: issueUpdateTokens ?? false,
            timelineLimit: max(1, timelineLimit ?? defaults.timelineLimit),
            timelineTotalLimit: max(1, timelineTotalLimit ?? defaults.timelineTotalLimit),
            tokenLimit: max(1, tokenLimit ?? defaults.tokenLimit))
    }
}
