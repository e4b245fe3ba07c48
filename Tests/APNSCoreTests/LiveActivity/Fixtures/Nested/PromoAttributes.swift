// Fixture (in a subfolder): conformance through a refining protocol, a top-level typealias, a module-qualified
// protocol name, a generic standard type the parser does not model, and #if branches.
import ActivityKit
import Foundation

typealias Money = Decimal

protocol BrandedActivity: ActivityAttributes {}

struct PromoAttributes: BrandedActivity {
    struct ContentState: Codable, Hashable {
        var price: Money
        var codes: Set<String>
        #if DEBUG
        var debugLabel: String?
        #endif
    }
    var campaign: String
}

struct TimerAttributes: ActivityKit.ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var window: ClosedRange<Date>
        var node: Node
    }
    struct Node: Codable, Hashable {
        var label: String
        var children: [Node]
    }
}
