import HTTPContract
import CNative

/// Reads the client certificate of a finished handshake into `PeerCertificate` (generic X.509 facts; the
/// application decides what they mean). The one place the transport touches X.509 pointers.
enum PeerCertificateReader {
    /// The peer's certificate, or nil when the client presented none.
    static func read(_ ssl: OpaquePointer) -> PeerCertificate? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        let result = SSL_get_verify_result(ssl)
        let verification: CertificateVerification = result == Int(X509_V_OK)
            ? .trusted : .untrusted(X509_verify_cert_error_string(result).map { String(cString: $0) } ?? "error \(result)")
        return PeerCertificate(
            subject: oneLine(X509_get_subject_name(certificate)), issuer: oneLine(X509_get_issuer_name(certificate)),
            subjectAttributes: attributes(X509_get_subject_name(certificate)), extensions: extensions(certificate),
            sha256: fingerprint(certificate), verification: verification)
    }

    private static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard cnative_X509_NAME_print_rfc2253(bio, name) >= 0 else { return "" }
        let pending = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = BIO_read(bio, &bytes, Int32(pending))
        return String(decoding: bytes.prefix(max(0, Int(read))), as: UTF8.self)
    }

    private static func attributes(_ name: OpaquePointer?) -> [CertificateAttribute] {
        guard let name else { return [] }
        return (0..<max(0, X509_NAME_entry_count(name))).compactMap { index in
            guard let entry = X509_NAME_get_entry(name, index) else { return nil }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry))
            guard length >= 0, let utf8 else { return nil }
            defer { cnative_OPENSSL_free(utf8) }
            return CertificateAttribute(
                oid: objectText(X509_NAME_ENTRY_get_object(entry)),
                value: String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self))
        }
    }

    private static func extensions(_ certificate: OpaquePointer) -> [CertificateExtension] {
        (0..<max(0, X509_get_ext_count(certificate))).compactMap { index in
            guard let item = X509_get_ext(certificate, index), let data = X509_EXTENSION_get_data(item) else { return nil }
            let count = Int(ASN1_STRING_length(data))
            let bytes = ASN1_STRING_get0_data(data).map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
            return CertificateExtension(
                oid: objectText(X509_EXTENSION_get_object(item)), critical: X509_EXTENSION_get_critical(item) != 0,
                value: bytes)
        }
    }

    private static func objectText(_ object: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(min(Int(length), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func fingerprint(_ certificate: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
