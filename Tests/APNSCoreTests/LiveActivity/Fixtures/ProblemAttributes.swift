// Fixture: things the parser must report instead of guessing.
import ActivityKit
import Foundation
import SwiftUI

struct Box<Value: Codable & Hashable>: Codable, Hashable {
    var value: Value
}

struct Custom: Codable, Hashable {
    var raw: String
    init(from decoder: Decoder) throws {
        raw = try decoder.singleValueContainer().decode(String.self)
    }
}

@propertyWrapper
struct Clamped: Codable, Hashable {
    var wrappedValue: Int
}

struct ProblemAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var tint: Color
        var custom: Custom
        var byID: [Int: String]
        var boxed: Box<Int>
        @Clamped var level: Int
        var computedDefault = makeDefault()
        var fine: String
    }
}

struct OpaqueStateAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var anything: String
    }
    var title: String
}

extension OpaqueStateAttributes.ContentState {
    init(from decoder: Decoder) throws {
        anything = "fixed"
    }
}

func makeDefault() -> Int { 1 }
