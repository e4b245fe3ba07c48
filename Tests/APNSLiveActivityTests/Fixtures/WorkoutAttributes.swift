// Fixture: `typealias ContentState = State`, explicit CodingKeys, every integer and floating type, UUID,
// Optional<T>, [String: T], arrays of a struct declared in an extension.
import ActivityKit
import CoreGraphics
import Foundation

public struct WorkoutAttributes: ActivityAttributes {
    public typealias ContentState = State

    public struct State: Codable, Hashable {
        public var heartRate: UInt8
        public var elevation: Int16
        public var steps: Int32
        public var calories: Int64
        public var lapCount: UInt
        public var splitMillis: UInt16
        public var totalMillis: UInt32
        public var seed: UInt64
        public var offset: Int8
        public var pace: Float
        public var distance: Double
        public var barWidth: CGFloat
        public var cadence: Optional<Int>
        public var zones: [String: Double]
        public var laps: [Lap]
        public var sessionID: UUID
        public var localOnly: Bool = false

        enum CodingKeys: String, CodingKey {
            case heartRate = "hr"
            case elevation, steps, calories
            case lapCount = "lap_count"
            case splitMillis, totalMillis, seed, offset, pace, distance, barWidth, cadence, zones, laps
            case sessionID = "session_id"
        }
    }

    public var athlete: String
    public var goalMeters: Int
}

extension WorkoutAttributes {
    public struct Lap: Codable, Hashable {
        public var index: Int
        public var duration: TimeInterval
    }
}
