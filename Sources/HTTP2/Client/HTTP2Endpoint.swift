/// Where to connect: `https://host:port` (TLS, ALPN h2) or `http://host:port` (h2c with prior knowledge).
public struct HTTP2Endpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var useTLS: Bool

    public init(host: String, port: Int, useTLS: Bool) {
        self.host = host
        self.port = port
        self.useTLS = useTLS
    }

    /// Parses `https://host[:port]` or `http://host[:port]` (a path, if any, is ignored; IPv6 in brackets).
    /// Port defaults: 443 for https, 80 for http.
    public init?(url text: String) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            useTLS = true
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            useTLS = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var hostPart = Substring(authority)
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty { return nil }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        if let portPart {
            guard let value = Int(portPart), (1...65535).contains(value) else { return nil }
            port = value
        } else {
            port = useTLS ? 443 : 80
        }
    }

    /// `:authority`: the host, with the port unless it is the scheme's default.
    public var authority: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return (useTLS && port == 443) || (!useTLS && port == 80) ? bracketed : "\(bracketed):\(port)"
    }

    public var description: String { (useTLS ? "https://" : "http://") + authority }
}
