/// How the simulated device behaves. Every field has a default, so a config file may give any subset:
/// `{"schemas": […], "supportsFrequentUpdates": true, "issuesUpdateTokens": true}`.
public struct LiveActivityConfiguration: Sendable, Hashable, Codable {
    /// A `timestamp` more than an hour ahead of the server clock is flagged ("not hours in the future").
    public static let defaultFutureTimestampTolerance: Double = 3600

    /// The app's `ActivityAttributes` types (from `--activity-source` or declared in the config file).
    public var schemas: [ActivitySchema]
    /// Priority-10 pushes per activity per sliding hour before the device throttles. Apple does not publish the
    /// number ([DTS] F-747624); 10 is this mock's choice, so a sender pushing priority 10 every minute learns about
    /// the budget. Priority-5 pushes never count. Source: A-LA.
    public var priority10BudgetPerHour: Int
    /// The budget when the app sets `NSSupportsLiveActivitiesFrequentUpdates` (also the mock's choice).
    public var frequentUpdatesBudgetPerHour: Int
    /// Whether the app's Info.plist has `NSSupportsLiveActivitiesFrequentUpdates = YES` (and the user left it on).
    public var supportsFrequentUpdates: Bool
    /// Whether a push-to-start issues a new per-activity update token (as `pushTokenUpdates` does on the device)
    /// that later updates must be sent to. Off: the activity is updated through the token that started it.
    /// Source: A-LA (A-GEN).
    public var issuesUpdateTokens: Bool
    /// How far ahead of the server clock `aps.timestamp` may be before `la-timestamp-future` is raised.
    public var futureTimestampTolerance: Double
    /// An activity is active for at most 8 hours, then ended. Source: A-LADISP (A-LA).
    public var activeLifetime: Double
    /// And gone from the Lock Screen at most 12 hours after it started. Source: A-LADISP (A-LA).
    public var totalLifetime: Double
    /// An ended activity stays on the Lock Screen up to 4 hours unless `dismissal-date` says otherwise.
    /// Source: A-LA.
    public var endedDisplayDuration: Double
    /// Timeline entries kept per token; older ones are dropped first.
    public var timelineLimit: Int
    /// Timeline entries kept across every token; the oldest are dropped first (as the delivery store keeps its
    /// newest 100,000 records). Bounds the device's memory however many tokens it sees.
    public var timelineTotalLimit: Int
    /// Tokens the device remembers. A push to a new token when this many are known first forgets the oldest tenth
    /// (first seen first), activities and timelines with them: a sender that sends to ever new tokens cannot grow
    /// the device's memory without bound (docs/reliability.md).
    public var tokenLimit: Int
    public static let defaultTokenLimit = 200_000

    public init(
        schemas: [ActivitySchema] = [], priority10BudgetPerHour: Int = 10, frequentUpdatesBudgetPerHour: Int = 60,
        supportsFrequentUpdates: Bool = false, issuesUpdateTokens: Bool = false,
        futureTimestampTolerance: Double = Self.defaultFutureTimestampTolerance,
        activeLifetime: Double = 8 * 3600, totalLifetime: Double = 12 * 3600, endedDisplayDuration: Double = 4 * 3600,
        timelineLimit: Int = 1000, timelineTotalLimit: Int = 100_000, tokenLimit: Int = Self.defaultTokenLimit
    ) {
        self.schemas = schemas
        self.priority10BudgetPerHour = priority10BudgetPerHour
        self.frequentUpdatesBudgetPerHour = frequentUpdatesBudgetPerHour
        self.supportsFrequentUpdates = supportsFrequentUpdates
        self.issuesUpdateTokens = issuesUpdateTokens
        self.futureTimestampTolerance = futureTimestampTolerance
        self.activeLifetime = activeLifetime
        self.totalLifetime = totalLifetime
        self.endedDisplayDuration = endedDisplayDuration
        self.timelineLimit = timelineLimit
        self.timelineTotalLimit = timelineTotalLimit
        self.tokenLimit = tokenLimit
    }

    /// The priority-10 budget in force.
    public var effectiveBudgetPerHour: Int {
        supportsFrequentUpdates ? frequentUpdatesBudgetPerHour : priority10BudgetPerHour
    }

    private enum CodingKeys: String, CodingKey {
        case schemas, priority10BudgetPerHour, frequentUpdatesBudgetPerHour, supportsFrequentUpdates
        case issuesUpdateTokens, futureTimestampTolerance, activeLifetime, totalLifetime, endedDisplayDuration, timelineLimit
        case timelineTotalLimit, tokenLimit
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = LiveActivityConfiguration()
        self.init(
            schemas: try container.decodeIfPresent([ActivitySchema].self, forKey: .schemas) ?? defaults.schemas,
            priority10BudgetPerHour: try container.decodeIfPresent(Int.self, forKey: .priority10BudgetPerHour)
                ?? defaults.priority10BudgetPerHour,
            frequentUpdatesBudgetPerHour: try container.decodeIfPresent(Int.self, forKey: .frequentUpdatesBudgetPerHour)
                ?? defaults.frequentUpdatesBudgetPerHour,
            supportsFrequentUpdates: try container.decodeIfPresent(Bool.self, forKey: .supportsFrequentUpdates)
                ?? defaults.supportsFrequentUpdates,
            issuesUpdateTokens: try container.decodeIfPresent(Bool.self, forKey: .issuesUpdateTokens)
                ?? defaults.issuesUpdateTokens,
            futureTimestampTolerance: try container.decodeIfPresent(Double.self, forKey: .futureTimestampTolerance)
                ?? defaults.futureTimestampTolerance,
            activeLifetime: try container.decodeIfPresent(Double.self, forKey: .activeLifetime) ?? defaults.activeLifetime,
            totalLifetime: try container.decodeIfPresent(Double.self, forKey: .totalLifetime) ?? defaults.totalLifetime,
            endedDisplayDuration: try container.decodeIfPresent(Double.self, forKey: .endedDisplayDuration)
                ?? defaults.endedDisplayDuration,
            timelineLimit: try container.decodeIfPresent(Int.self, forKey: .timelineLimit) ?? defaults.timelineLimit,
            timelineTotalLimit: try container.decodeIfPresent(Int.self, forKey: .timelineTotalLimit)
                ?? defaults.timelineTotalLimit,
            tokenLimit: try container.decodeIfPresent(Int.self, forKey: .tokenLimit) ?? defaults.tokenLimit)
    }
}
