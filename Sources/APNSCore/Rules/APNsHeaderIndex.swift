/// Where the APNs request headers the rules read sit in `HTTPRequest.headers`, found in one pass when a push's
/// evaluation starts: the rules, the authenticator's `authorization` and the pipeline then look a header up by
/// position instead of comparing every header's name again for each of them.
///
/// Names are matched exactly (HTTP/2 field names arrive lower-cased), as `HTTPRequest.value(_:)` matches them; the
/// first of repeated headers is the one a lookup finds, as there.
public struct APNsHeaderIndex: Sendable, Equatable {
    /// The headers indexed. The first six are `PushRule.singleValueHeaders`, in that order.
    public enum Name: Int, Sendable, CaseIterable {
        case apnsID, apnsExpiration, apnsPriority, apnsTopic, apnsPushType, apnsCollapseID, authorization

        /// The header's field name.
        public var fieldName: String {
            switch self {
            case .apnsID: "apns-id"
            case .apnsExpiration: "apns-expiration"
            case .apnsPriority: "apns-priority"
            case .apnsTopic: "apns-topic"
            case .apnsPushType: "apns-push-type"
            case .apnsCollapseID: "apns-collapse-id"
            case .authorization: "authorization"
            }
        }

        /// The indexed name `fieldName` is, if any: its length picks the one candidate compared.
        init?(fieldName name: String) {
            let candidate: Name
            switch name.utf8.count {
            case 7: candidate = .apnsID
            case 10: candidate = .apnsTopic
            // Equal small strings compare in one step: the usual name is tried first, without slicing the name.
            case 13: candidate = name == "authorization" ? .authorization : .apnsPriority
            case 14: candidate = .apnsPushType
            case 15: candidate = .apnsExpiration
            case 16: candidate = .apnsCollapseID
            default: return nil
            }
            guard name == candidate.fieldName else { return nil }
            self = candidate
        }

        fileprivate var bit: UInt8 { 1 << UInt8(rawValue) }
    }

    /// The position of each name's first occurrence, -1 when absent (lane `Name.rawValue`).
    private var firstPositions = SIMD8<Int32>(repeating: -1)
    /// Bit `Name.rawValue` set: the header appears more than once.
    private var repeatedNames: UInt8 = 0

    /// Indexes `headers` in one pass.
    public init(_ headers: [HeaderField]) {
        var seen: UInt8 = 0
        for position in headers.indices {
            guard headers[position].name.utf8.first == UInt8(ascii: "a"),  // every indexed name starts with "a"
                let name = Name(fieldName: headers[position].name)
            else { continue }
            if seen & name.bit != 0 {
                repeatedNames |= name.bit
            } else {
                seen |= name.bit
                firstPositions[name.rawValue] = Int32(truncatingIfNeeded: position)
            }
        }
    }

    /// The position in the indexed headers of the first `name` header; nil when there is none.
    public func firstPosition(of name: Name) -> Int? {
        let position = firstPositions[name.rawValue]
        return position < 0 ? nil : Int(position)
    }

    /// Whether the `name` header appears more than once.
    public func isRepeated(_ name: Name) -> Bool {
        repeatedNames & name.bit != 0
    }

    /// Whether any of `PushRule.singleValueHeaders` (every name but `authorization`) appears more than once.
    public var repeatsASingleValueHeader: Bool {
        repeatedNames & ~Name.authorization.bit != 0
    }

    /// The first value of `name` in `headers` (the headers this index was made from), as `HTTPRequest.value(_:)`.
    public func value(_ name: Name, in headers: [HeaderField]) -> String? {
        firstPosition(of: name).map { headers[$0].value }
    }

    /// Every value of `name` in `headers` (the headers this index was made from), in arrival order, as
    /// `HTTPRequest.values(_:)`.
    public func values(_ name: Name, in headers: [HeaderField]) -> [String] {
        guard let first = firstPosition(of: name) else { return [] }
        guard isRepeated(name) else { return [headers[first].value] }
        let fieldName = name.fieldName
        return headers[first...].filter { $0.name == fieldName }.map(\.value)
    }
}
