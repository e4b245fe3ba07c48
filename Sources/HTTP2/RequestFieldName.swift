import Foundation

/// What a session does with an arriving request header field, told from the name's bytes before any string is
/// made: the pseudo-headers it keeps apart, `host` (kept apart and among the headers), the names APNs requests
/// usually carry (shared constant strings instead of a string decoded per field), or any other name.
enum RequestFieldName: Equatable {
    case method, path, scheme, authority, host
    /// A regular field whose name is this constant (equal to the bytes).
    case known(String)
    /// Any other name, pseudo-headers nghttp2 let through included: decoded and kept as it came.
    case other

    /// The name's length picks the few candidates compared, byte for byte.
    init(_ name: UnsafeBufferPointer<UInt8>) {
        func matches(_ literal: StaticString) -> Bool {
            literal.utf8CodeUnitCount == name.count && memcmp(name.baseAddress!, literal.utf8Start, name.count) == 0
        }
        switch name.count {
        case 2 where matches("te"): self = .known("te")
        case 4 where matches("host"): self = .host
        case 5 where matches(":path"): self = .path
        case 6 where matches("accept"): self = .known("accept")
        case 7 where matches(":method"): self = .method
        case 7 where matches(":scheme"): self = .scheme
        case 7 where matches("apns-id"): self = .known("apns-id")
        case 10 where matches("apns-topic"): self = .known("apns-topic")
        case 10 where matches(":authority"): self = .authority
        case 10 where matches("user-agent"): self = .known("user-agent")
        case 12 where matches("content-type"): self = .known("content-type")
        case 13 where matches("authorization"): self = .known("authorization")
        case 13 where matches("apns-priority"): self = .known("apns-priority")
        case 14 where matches("apns-push-type"): self = .known("apns-push-type")
        case 14 where matches("content-length"): self = .known("content-length")
        case 15 where matches("apns-expiration"): self = .known("apns-expiration")
        case 15 where matches("accept-encoding"): self = .known("accept-encoding")
        case 16 where matches("apns-collapse-id"): self = .known("apns-collapse-id")
        default: self = .other
        }
    }
}
