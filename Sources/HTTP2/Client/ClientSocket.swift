import CNative
import Glibc

/// A connected client socket, plain (h2c) or TLS (OpenSSL, ALPN `h2`), non-blocking and driven by `poll()`.
/// One of the two files of this module that call C (the other is `HTTP2ClientSession`).
///
/// Not thread-safe: one socket belongs to one thread.
final class ClientSocket {
    enum ReadResult {
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed the connection (TCP EOF or TLS close_notify).
        case closed
        case failed(String)
    }

    private var fd: Int32
    private var ssl: OpaquePointer?
    private var context: OpaquePointer?
    /// The ALPN protocol the server selected (nil: none, or plain TCP).
    private(set) var alpn: String?
    private(set) var tlsVersion: String?

    /// Connects to `host:port` (every address `getaddrinfo` gives, in order) within `timeout` seconds, then runs
    /// the TLS handshake when `tls` is given (SNI and certificate name check against `host`).
    init(host: String, port: Int, tls: TLSClientConfiguration?, timeout: Double) throws(HTTP2ClientError) {
        _ = Self.ignoreSIGPIPE
        fd = try Self.connect(host: host, port: port, timeout: timeout)
        guard let tls else { return }
        do {
            try handshake(host: host, tls: tls, timeout: timeout)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// OpenSSL writes with write(2): a peer that has gone away must give EPIPE, not kill the process.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    func close() {
        if let ssl {
            SSL_shutdown(ssl)
            SSL_free(ssl)
            self.ssl = nil
        }
        if let context {
            SSL_CTX_free(context)
            self.context = nil
        }
        // Once only: a second close could hit a descriptor another connection has been given since.
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: - I/O

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        if let ssl {
            ERR_clear_error()
            let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
            if count > 0 { return .bytes(Int(count)) }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .wouldBlock
            case SSL_ERROR_ZERO_RETURN: return .closed
            case SSL_ERROR_SYSCALL:
                return errno == 0 || errno == ECONNRESET ? .closed : .failed(String(cString: strerror(errno)))
            default: return .failed(Self.openSSLError())
            }
        }
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        if errno == ECONNRESET { return .closed }
        return .failed(String(cString: strerror(errno)))
    }

    /// Writes what it can now; the number of bytes taken (0 when the socket is full), or nil when the connection
    /// is broken.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return 0 }
        if let ssl {
            ERR_clear_error()
            let count = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, Int(Int32.max))))
            if count > 0 { return Int(count) }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return 0
            default: return nil
            }
        }
        let count = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        return nil
    }

    /// Bytes OpenSSL has decrypted but not yet handed out (poll() cannot see them).
    var hasBufferedInput: Bool { ssl.map { SSL_pending($0) > 0 } ?? false }

    /// Waits until the socket is readable (or writable, when `write`), or `timeout` seconds pass.
    /// Returns (readable, writable).
    func wait(write: Bool, timeout: Double) -> (readable: Bool, writable: Bool) {
        if hasBufferedInput { return (true, false) }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN) | (write ? Int16(POLLOUT) : 0), revents: 0)
        let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready > 0 else { return (false, false) }
        let readable = descriptor.revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0
        return (readable, descriptor.revents & Int16(POLLOUT) != 0)
    }

    // MARK: - Connecting

    private static func connect(host: String, port: Int, timeout: Double) throws(HTTP2ClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw .connect("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = "\(host):\(port): \(String(cString: strerror(errno)))"
                Glibc.close(fd)
                continue
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&descriptor, 1, Int32(timeout * 1000)) <= 0 {
                lastError = "\(host):\(port): no answer within \(timeout) s"
                Glibc.close(fd)
                continue
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if socketError == 0 { return fd }
            lastError = "\(host):\(port): \(String(cString: strerror(socketError)))"
            Glibc.close(fd)
        }
        throw .connect(lastError)
    }

    /// Loads a PKCS#12 bundle (`.p12`, as Keychain Access exports Apple's push certificates) as the client
    /// certificate and key.
    private static func usePKCS12(_ context: OpaquePointer, path: String, password: String) throws(HTTP2ClientError) {
        guard let file = fopen(path, "rb") else {
            throw .tls("cannot read the client certificate \(path): \(String(cString: strerror(errno)))")
        }
        let bundle = d2i_PKCS12_fp(file, nil)
        fclose(file)
        guard let bundle else { throw .tls("\(path) is not a PKCS#12 file: \(openSSLError())") }
        defer { PKCS12_free(bundle) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        guard PKCS12_parse(bundle, password, &key, &certificate, nil) == 1, let key, let certificate else {
            throw .tls("cannot open \(path) (wrong --cert-password?): \(openSSLError())")
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
        }
        guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1 else {
            throw .tls("cannot use the client certificate in \(path): \(openSSLError())")
        }
    }

    private func handshake(host: String, tls: TLSClientConfiguration, timeout: Double) throws(HTTP2ClientError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls(Self.openSSLError()) }
        self.context = context
        _ = cnative_SSL_CTX_set_min_proto_version(context, cnative_TLS1_2_VERSION())
        // Partial writes and a moving buffer: the write path hands OpenSSL whatever is left of its queue.
        _ = cnative_SSL_CTX_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        if let caFile = tls.caFile {
            guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                throw .tls("cannot load the CA file \(caFile): \(Self.openSSLError())")
            }
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        SSL_CTX_set_verify(context, tls.verifyPeer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
        if let certificate = tls.clientCertificateFile, certificate.hasSuffix(".p12") || certificate.hasSuffix(".pfx") {
            try Self.usePKCS12(context, path: certificate, password: tls.clientCertificatePassword ?? "")
        } else if let certificate = tls.clientCertificateFile {
            guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1,
                  SSL_CTX_use_PrivateKey_file(context, tls.clientKeyFile ?? certificate, SSL_FILETYPE_PEM) == 1 else {
                throw .tls("cannot load the client certificate \(certificate): \(Self.openSSLError())")
            }
        }
        guard let ssl = SSL_new(context) else { throw .tls(Self.openSSLError()) }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        let serverName = tls.serverName ?? host
        if !Self.isIPAddress(serverName) { _ = cnative_SSL_set_tlsext_host_name(ssl, serverName) }
        if tls.verifyPeer { SSL_set1_host(ssl, serverName) }
        var protocols: [UInt8] = tls.offerHTTP11 ? [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8) : [2] + Array("h2".utf8)
        SSL_set_alpn_protos(ssl, &protocols, UInt32(protocols.count))

        let started = ContinuousClock.now
        while true {
            ERR_clear_error()
            let result = SSL_connect(ssl)
            if result == 1 { break }
            let error = SSL_get_error(ssl, result)
            guard error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE else {
                let verify = SSL_get_verify_result(ssl)
                if verify != X509_V_OK {
                    let text = String(cString: X509_verify_cert_error_string(verify))
                    let trust = tls.caFile.map { "the CA file \($0)" } ?? "the system trust store"
                    throw .tls("the server's certificate for \(serverName) is not trusted (\(text)); checked against \(trust)")
                }
                throw .tls("TLS handshake with \(host) failed: \(Self.openSSLError())")
            }
            let elapsed = ContinuousClock.now - started
            guard elapsed < .milliseconds(Int(timeout * 1000)) else {
                throw .tls("TLS handshake with \(host) did not finish within \(timeout) s")
            }
            var descriptor = pollfd(fd: fd, events: error == SSL_ERROR_WANT_READ ? Int16(POLLIN) : Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        if let selected, length > 0 {
            alpn = String(decoding: UnsafeBufferPointer(start: selected, count: Int(length)), as: UTF8.self)
        }
        tlsVersion = String(cString: SSL_get_version(ssl))
    }

    private static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    static func openSSLError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown OpenSSL error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// How the client sets up TLS.
public struct TLSClientConfiguration: Sendable, Equatable {
    /// PEM file of the certificate authorities to trust; nil: the system trust store.
    public var caFile: String?
    /// Server name for SNI and the certificate check; nil: the URL's host.
    public var serverName: String?
    /// Off only for tests of the client itself.
    public var verifyPeer: Bool
    /// A client certificate (certificate-based authentication, A-CERT) and its key (nil: in the same file).
    public var clientCertificateFile: String?
    public var clientKeyFile: String?
    /// The password of a `.p12` / `.pfx` `clientCertificateFile` (nil: empty).
    public var clientCertificatePassword: String?
    /// Also offer `http/1.1` in ALPN, so that an HTTP/1.1-only server can say so (the conformance runner).
    public var offerHTTP11: Bool

    public init(
        caFile: String? = nil, serverName: String? = nil, verifyPeer: Bool = true, clientCertificateFile: String? = nil,
        clientKeyFile: String? = nil, offerHTTP11: Bool = false
    ) {
        self.caFile = caFile
        self.serverName = serverName
        self.verifyPeer = verifyPeer
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.offerHTTP11 = offerHTTP11
    }
}
