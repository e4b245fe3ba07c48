// Fixture for ActivitySourceParser tests. Written for this project; never compiled by SwiftPM (excluded).
// Style: ContentState nested, defaults on var and let, optionals, computed properties, a String-raw enum,
// a nested Codable struct, Date and URL fields, and a reverse alias (the alias points at ContentState).
import ActivityKit
import Foundation
import SwiftUI

struct DeliveryAttributes: ActivityAttributes {
    package typealias DeliveryStatus = ContentState

    package struct ContentState: Codable, Hashable {
        var phase: Phase
        var progress: Double = 0
        var etaDate: Date
        var courier: Courier?
        var note: String? = nil
        let schemaVersion = 2
        var trackingURL: URL
        var stopsLeft: Int = 3

        var isLate: Bool { etaDate < Date() }
        var progressText: String {
            get { "\(Int(progress * 100))%" }
        }
        var observed: Int = 0 {
            didSet { print(observed) }
        }
        static var preview = ContentState(phase: .preparing, etaDate: .now, trackingURL: URL(string: "https://example.com")!)
    }

    enum Phase: String, Codable, Hashable {
        case preparing
        case onTheWay = "on_the_way"
        case delivered
    }

    struct Courier: Codable, Hashable {
        var name: String
        var vehicle: String?
        var rating: Float
    }

    var orderID: String
    var restaurantName: String
    let currency = "EUR"
    var createdAt: Date

    func summary() -> String {
        struct LocalHelper { var ignored: Int }
        return orderID
    }
}

// Not an ActivityAttributes type: must not produce a schema.
struct DeliveryAnalytics: Codable {
    var events: [String]
}
