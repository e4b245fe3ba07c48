import Foundation

/// The `apns-id` and `apns-unique-id` response headers.
public enum ApnsID {
    /// The `apns-id` to answer with: the request's value byte for byte when present (aioapns matches responses by
    /// it), else a new UPPER-case UUID as APNs generates. Source: A-RESP; observed upper-case ids.
    public static func resolve(requestValue: String?) -> String {
        if let requestValue, !requestValue.isEmpty { return requestValue }
        return RandomUUID.make(uppercase: true)
    }

    /// A new `apns-unique-id`: a lower-case UUID, as observed (AndrewBarba/apns2#95). APNs sends it in the
    /// development environment only (A-RESP); the caller decides.
    public static func newUniqueID() -> String {
        RandomUUID.make(uppercase: false)
    }

    /// Whether `value` is a UUID in canonical 8-4-4-4-12 form (either letter case). Source: A-SEND (`apns-id`).
    public static func isCanonicalUUID(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in  // the bytes in place: no array, no list of dash positions per byte
            guard bytes.count == 36 else { return false }
            for (index, byte) in bytes.enumerated() {
                if CanonicalUUID.isDash(at: index) {
                    if byte != UInt8(ascii: "-") { return false }
                } else if CanonicalUUID.hexDigit(byte) == nil {
                    return false
                }
            }
            return true
        }
    }
}
