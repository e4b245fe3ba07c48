// Fixture: `typealias ContentState = State`, explicit CodingKeys, every integer and floating type, UUID,
// Optional<T>, [String: T], arrays of a struct declared in an extension.
import ActivityKit
import CoreGraphics
import Foundation

package struct WorkoutAttributes: ActivityAttributes {
    package typealias ContentState = State

    package struct State: Codable, Hashable {
        package var heartRate: UInt8
        package var elevation: Int16
        package var steps: Int32
        package var calories: Int64
        package var lapCount: UInt
        package var splitMillis: UInt16
        package var totalMillis: UInt32
        package var seed: UInt64
        package var offset: Int8
        package var pace: Float
        package var distance: Double
        package var barWidth: CGFloat
        package var cadence: Optional<Int>
        package var zones: [String: Double]
        package var laps: [Lap]
        package var sessionID: UUID
        package var localOnly: Bool = false

        enum CodingKeys: String, CodingKey {
            case heartRate = "hr"
            case elevation, steps, calories
            case lapCount = "lap_count"
            case splitMillis, totalMillis, seed, offset, pace, distance, barWidth, cadence, zones, laps
            case sessionID = "session_id"
        }
    }

    package var athlete: String
    package var goalMeters: Int
}

extension WorkoutAttributes {
    package struct Lap: Codable, Hashable {
        package var index: Int
        package var duration: TimeInterval
    }
}
