import HTTPContract
import CNative

/// The server's OpenSSL context: TLS 1.2 or later, ALPN `h2` when offered and no ALPN otherwise (aioapns and
/// Pushy offer none; APNs accepts them: LIB-aioapns, LIB-pushy), and a client-certificate request that
/// does not require one (APNs asks for a certificate during every handshake: A-CONN [OBS]).
final class TLSContext: @unchecked Sendable {
    // Immutable after init; OpenSSL contexts are safe to share across threads once configured.
    let context: OpaquePointer

    init(files: TLSFiles) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TransportError.tls(Self.lastError()) }
        self.context = context
        _ = cnative_SSL_CTX_set_min_proto_version(context, cnative_TLS1_2_VERSION())
        cnative_SSL_CTX_set_server_defaults(context)
        guard SSL_CTX_use_certificate_chain_file(context, files.certificateChainPath) == 1 else {
            throw TransportError.tls("cannot load certificate chain \(files.certificateChainPath): \(Self.lastError())")
        }
        guard Self.usePrivateKey(context, path: files.privateKeyPath) == 1 else {
            throw TransportError.tls("cannot load private key \(files.privateKeyPath): \(Self.lastError())")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TransportError.tls("the private key does not match the certificate: \(Self.lastError())")
        }
        cnative_SSL_CTX_enable_h2_alpn(context)
        let sessionContext: [UInt8] = Array("apns-mock".utf8)
        _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        if let authority = files.clientCertificateAuthorityPath {
            guard SSL_CTX_load_verify_locations(context, authority, nil) == 1 else {
                throw TransportError.tls("cannot load client-certificate authority \(authority): \(Self.lastError())")
            }
            if let names = SSL_load_client_CA_file(authority) { SSL_CTX_set_client_CA_list(context, names) }
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, acceptAnyClientCertificate)
    }

    deinit { SSL_CTX_free(context) }

    /// `SSL_CTX_use_PrivateKey_file` for PEM, with an unencrypted EC key read by OpenSSL's EC decoder alone (~1M
    /// instructions instead of ~4M trying every decoder); any other key, and every reading error, through the file
    /// function itself.
    private static func usePrivateKey(_ context: OpaquePointer, path: String) -> Int32 {
        guard let key = cnative_read_ec_private_key_pem_file(path) else {
            return SSL_CTX_use_PrivateKey_file(context, path, SSL_FILETYPE_PEM)
        }
        defer { EVP_PKEY_free(key) }
        return SSL_CTX_use_PrivateKey(context, key)
    }

    func newConnection() -> OpaquePointer? { SSL_new(context) }

    /// The facts the delivery record keeps about a finished handshake.
    static func info(of ssl: OpaquePointer) -> TLSInfo {
        var alpnPointer: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpnPointer, &alpnLength)
        let alpn = alpnPointer.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) }
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? ""
        return TLSInfo(
            alpn: (alpn?.isEmpty ?? true) ? nil : alpn,
            version: String(cString: SSL_get_version(ssl)),
            cipher: cipher,
            serverName: cnative_SSL_get_servername(ssl).map { String(cString: $0) },
            clientCertificate: PeerCertificateReader.read(ssl))
    }

    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown OpenSSL error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return cString(buffer)
    }
}

/// The handshake never fails because of what the client presents: the certificate is checked against
/// `TLSFiles.clientCertificateAuthorityPath` and the outcome (`SSL_get_verify_result`) travels with the connection
/// as `PeerCertificate.verification`, so that the application answers an untrusted certificate as it chooses.
private let acceptAnyClientCertificate: @convention(c) (Int32, OpaquePointer?) -> Int32 = { _, _ in 1 }
