/// Browser-borne attacks on an admin API without a token. The admin API listens on loopback, but any web page the
/// developer visits can make the browser send requests there:
/// - a cross-origin "simple" POST (`Content-Type: text/plain`, form types) needs no CORS preflight, so it could
///   inject faults or declare tokens: POSTs must say `Content-Type: application/json` (or `…+json`), which a page
///   cannot send cross-origin without a preflight this server never approves;
/// - a request with an `Origin` other than the admin server's own (the inspector) is refused;
/// - DNS rebinding (a hostile name re-pointed to 127.0.0.1) would let a page READ deliveries: the `Host` header must
///   name a loopback address (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`) or the configured admin host.
/// With an admin token (`--admin-token`) the token is the protection and this guard stands aside; so it does when
/// the admin host is a wildcard address (`0.0.0.0`, `::`), where clients use names the server cannot know.
package struct AdminRequestGuard: Sendable {
    package let adminHost: String
    package let adminPort: Int
    package let tokenConfigured: Bool

    package init(adminHost: String, adminPort: Int, tokenConfigured: Bool) {
        self.adminHost = adminHost
        self.adminPort = adminPort
        self.tokenConfigured = tokenConfigured
    }

    /// The answer refusing the request, or nil to let it through.
    package func refusal(method: String, host: String?, origin: String?, contentType: String?) -> AdminResponse? {
        guard !tokenConfigured, !Self.isWildcard(adminHost) else { return nil }
        if let host, !isAllowedHostName(Self.hostName(ofAuthority: host)) {
            return .error(403, "Host \(host) is not this admin server's: use http://127.0.0.1:\(adminPort) or localhost (a web page on another name may be a DNS-rebinding attempt)")
        }
        if let origin, !isOwnOrigin(origin) {
            return .error(403, "requests from the web origin \(origin) are refused: the admin API answers its own inspector and non-browser clients only")
        }
        // POST is the only write method a page may send cross-origin without a preflight (PUT and DELETE need one).
        if method == "POST", !Self.isJSON(contentType) {
            return .error(415, "write requests need Content-Type: application/json (got \(contentType ?? "none"))")
        }
        return nil
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "*", ""].contains(host)
    }

    /// `name`, `name:port`, `[v6]` or `[v6]:port` → the name (lowercased, brackets kept off).
    static func hostName(ofAuthority authority: String) -> String {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return text }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { return String(text[..<colon]) }
        return text
    }

    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    func isAllowedHostName(_ name: String) -> Bool {
        Self.isLoopbackName(name) || name == Self.hostName(ofAuthority: adminHost)
    }

    /// `http://<allowed host>:<admin port>` (the inspector's own pages).
    func isOwnOrigin(_ origin: String) -> Bool {
        let prefix = "http://"
        guard origin.lowercased().hasPrefix(prefix) else { return false }
        let authority = String(origin.dropFirst(prefix.count))
        guard !authority.contains("/") else { return false }
        let name = Self.hostName(ofAuthority: authority)
        let port = authority.hasSuffix("]") || !authority.contains(":") ? 80 : Int(authority.split(separator: ":").last ?? "") ?? -1
        return isAllowedHostName(name) && port == adminPort
    }
}
