private import CNative

/// Converts ES256 signatures between JOSE's raw `r||s` (two 32-byte big-endian integers, RFC 7518 §3.4) and the
/// ASN.1 DER `ECDSA-Sig-Value` OpenSSL signs and verifies. APNs accepts both (A-TOKEN).
enum ECDSASignatureEncoding {
    static let rawLength = 64

    /// DER for a 64-byte `r||s`, or nil when `raw` is not 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawLength, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(raw, 32, nil) else { return nil }
        guard let s = raw.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress! + 32, 32, nil) }) else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }

    /// The 64-byte `r||s` of a DER signature, or nil when `der` is not a DER `ECDSA-Sig-Value` with 256-bit values.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            _ = EVPKey.drainErrors()
            return nil
        }
        defer { ECDSA_SIG_free(parsed) }
        var raw = [UInt8](repeating: 0, count: rawLength)
        let ok = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(ECDSA_SIG_get0_r(parsed), base, 32) == 32
                && BN_bn2binpad(ECDSA_SIG_get0_s(parsed), base + 32, 32) == 32
        }
        return ok ? raw : nil
    }
}
