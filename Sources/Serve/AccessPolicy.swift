/// Which requests the server answers (docs/serve.md, "Hosts and origins"): a `Host` header must
/// name this machine as the page reaches it (127.0.0.1, localhost, ::1, the bound address) or a
/// host allowed with `--allow-host`, which defeats DNS rebinding; a WebSocket upgrade from a
/// browser (which always sends `Origin`) must come from the served page's origin, so no other web
/// page can drive the simulation.
package struct AccessPolicy: Sendable, Equatable {
    /// The port the server listens on.
    package var port: Int
    /// Names and addresses of this machine the page may be reached at, lowercase.
    package var localHosts: Set<String>
    /// Hosts allowed by name (a reverse proxy, a phone on the network), lowercase; on any port.
    package var allowedHosts: Set<String>

    /// - Parameters:
    ///   - boundHost: the address the server listens on (`--host`); a wildcard adds no name.
    ///   - port: the bound port.
    ///   - allowedHosts: `--allow-host` names.
    package init(boundHost: String, port: Int, allowedHosts: [String]) {
        self.port = port
        var local: Set<String> = ["127.0.0.1", "localhost", "::1"]
        let bound = Self.normalized(boundHost)
        if !["0.0.0.0", "::", ""].contains(bound) { local.insert(bound) }
        localHosts = local
        self.allowedHosts = Set(allowedHosts.map(Self.normalized))
    }

    /// Whether a request with this `Host` header may be answered (HTTP/1.1 requires one).
    package func allowsHost(_ header: String?) -> Bool {
        guard let header, let (host, port) = Self.split(authority: header) else { return false }
        if allowedHosts.contains(host) { return true }
        return localHosts.contains(host) && (port == nil || port == self.port)
    }

    /// Whether a WebSocket upgrade with this `Origin` header may go ahead. No `Origin` is not a
    /// browser (browsers always send it), so no web page is behind it.
    package func allowsOrigin(_ header: String?) -> Bool {
        guard let header else { return true }
        let lower = header.lowercased()
        let scheme: String, defaultPort: Int
        if lower.hasPrefix("http://") {
            (scheme, defaultPort) = ("http://", 80)
        } else if lower.hasPrefix("https://") {
            (scheme, defaultPort) = ("https://", 443)
        } else {
            return false
        }
        let authority = String(lower.dropFirst(scheme.count))
        guard !authority.contains("/"), let (host, port) = Self.split(authority: authority) else { return false }
        if allowedHosts.contains(host) { return true }
        return localHosts.contains(host) && (port ?? defaultPort) == self.port
    }

    /// `host[:port]` or `[v6]:port`, lowercase, brackets removed; nil if malformed.
    static func split(authority: String) -> (host: String, port: Int?)? {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65_535).contains(port) else { return nil }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return parts[0].isEmpty ? nil : (normalized(String(parts[0])), nil)
        case 2:
            guard !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port) else { return nil }
            return (normalized(String(parts[0])), port)
        default:
            return nil
        }
    }

    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }
}
