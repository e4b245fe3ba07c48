/// What a session does with an arriving request header field, told from the name's bytes before any string is
/// made: the pseudo-headers it keeps apart, `host` (kept apart and among the headers), the names APNs requests
/// usually carry (shared constant strings instead of a string decoded per field), or any other name.
enum RequestFieldName: Equatable {
    case method, path, scheme, authority, host
    /// A regular field whose name is this constant (equal to the bytes).
    case known(String)
    /// Any other name, pseudo-headers nghttp2 let through included: decoded and kept as it came.
    case other

    /// The names recognised, by byte length (index): their bytes and what they are.
    private static let byLength: [[(bytes: [UInt8], field: RequestFieldName)]] = {
        let regular = [
            "apns-id", "apns-expiration", "apns-priority", "apns-topic", "apns-push-type", "apns-collapse-id",
            "authorization", "content-type", "content-length", "user-agent", "accept", "accept-encoding", "te",
        ]
        var entries: [(String, RequestFieldName)] = [
            (":method", .method), (":path", .path), (":scheme", .scheme), (":authority", .authority), ("host", .host),
        ]
        entries += regular.map { ($0, .known($0)) }
        var table = [[(bytes: [UInt8], field: RequestFieldName)]](repeating: [], count: 17)
        for (name, field) in entries { table[name.utf8.count].append((Array(name.utf8), field)) }
        return table
    }()

    init(_ name: UnsafeBufferPointer<UInt8>) {
        self = .other
        guard name.count < Self.byLength.count else { return }
        for candidate in Self.byLength[name.count] where candidate.bytes.elementsEqual(name) {
            self = candidate.field
            return
        }
    }
}
