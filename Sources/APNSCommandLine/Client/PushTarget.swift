import HTTP2
import APNSJSON
import Foundation

/// The target and credential flags of `apns-mock push`, as typed (nil: not given).
package struct PushTargetFlags: Sendable, Equatable {
    package var url: String?
    package var sandbox = false
    package var production = false
    package var caFile: String?
    package var keyFile: String?
    package var keyID: String?
    package var teamID: String?
    package var profile: String?
    package var profilesFile: String?
    package var bundleID: String?
    package var adminURL: String?

    package init() {}
}

/// What applies when nothing says otherwise: the local mock and its test-only credentials.
package struct PushDefaults: Sendable, Equatable {
    package var url = "https://localhost:2197"
    package var caFile: String
    package var keyFile: String
    package var keyID: String
    package var teamID: String
    package var bundleID: String
    package var adminURL = "http://127.0.0.1:2198"

    package init(caFile: String, keyFile: String, keyID: String, teamID: String, bundleID: String) {
        self.caFile = caFile
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
    }
}

/// One named target in a profiles file: `{"profiles": {"NAME": {"url"|"environment", "caFile", "keyFile",
/// "keyID", "teamID", "bundleID", "adminURL"}}}`. Relative paths are read from the file's directory.
package struct PushProfile: Sendable, Equatable, Codable {
    package var url: String?
    /// `sandbox` or `production`: Apple's hosts.
    package var environment: String?
    package var caFile: String?
    package var keyFile: String?
    package var keyID: String?
    package var teamID: String?
    package var bundleID: String?
    package var adminURL: String?
}

/// Where and how to send, once flags, profile, environment variables and defaults are combined.
package struct PushTarget: Sendable, Equatable {
    package var endpoint: HTTP2Endpoint
    package var tls: TLSClientConfiguration
    /// The `.p8` signing key; nil sends no provider token.
    package var keyFile: String?
    package var keyID: String?
    package var teamID: String?
    package var bundleID: String?
    /// The mock's admin API, to read back the delivery record.
    package var adminURL: String?
    /// True when `adminURL` is only the default guess: say nothing if it does not answer.
    package var adminURLIsGuess: Bool
    /// Apple's own servers (`--sandbox`, `--production`).
    package var isApple: Bool
}

/// Combines the sources of every target setting, first found wins: flags, then `--profile`, then the
/// `APNS_MOCK_*` environment variables (what `apns-mock check` sets), then the defaults (the local mock). Apple's
/// hosts (A-SEND) get the system trust store and no default key.
package enum PushTargetResolver {
    package static let sandboxURL = "https://api.sandbox.push.apple.com:443"
    package static let productionURL = "https://api.push.apple.com:443"

    package static func resolve(
        _ flags: PushTargetFlags, environment: [String: String], defaults: PushDefaults,
        homeDirectory: String = NSHomeDirectory(), currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(PushBuildError) -> PushTarget {
        let targets = [flags.url != nil, flags.sandbox, flags.production].filter { $0 }.count
        if targets > 1 { throw PushBuildError("give one of --url, --sandbox and --production") }
        let profile = try flags.profile.map { name throws(PushBuildError) in
            try loadProfile(name, file: flags.profilesFile, environment: environment, home: homeDirectory, cwd: currentDirectory)
        }
        if let environmentName = profile?.environment, !["sandbox", "production"].contains(environmentName) {
            throw PushBuildError("profile \(flags.profile!): environment is sandbox or production, not \(environmentName)")
        }

        enum Source { case flag, profile, environment, defaults }
        let (urlText, source): (String, Source) =
            if let url = flags.url { (url, .flag) }
            else if flags.sandbox { (sandboxURL, .flag) }
            else if flags.production { (productionURL, .flag) }
            else if let url = profile?.url { (url, .profile) }
            else if profile?.environment == "sandbox" { (sandboxURL, .profile) }
            else if profile?.environment == "production" { (productionURL, .profile) }
            else if let url = environment["APNS_MOCK_URL"], !url.isEmpty { (url, .environment) }
            else { (defaults.url, .defaults) }
        guard let endpoint = HTTP2Endpoint(url: urlText) else {
            throw PushBuildError("cannot read the URL \(urlText): write https://HOST[:PORT] (TLS) or http://HOST[:PORT] (h2c)")
        }
        let isApple = endpoint.host.lowercased().hasSuffix("push.apple.com")
        let loopback = ["localhost", "127.0.0.1", "::1"].contains(endpoint.host.lowercased())

        let caFile = flags.caFile ?? profile?.caFile
            ?? (isApple ? nil : nonEmpty(environment["APNS_MOCK_CA_FILE"]) ?? (loopback || source == .defaults ? defaults.caFile : nil))

        let keyFile = flags.keyFile ?? profile?.keyFile ?? nonEmpty(environment["APNS_MOCK_KEY_FILE"]) ?? (isApple ? nil : defaults.keyFile)
        let keyFromDefaults = flags.keyFile == nil && profile?.keyFile == nil && nonEmpty(environment["APNS_MOCK_KEY_FILE"]) == nil
        let keyID = flags.keyID ?? profile?.keyID
            ?? ((flags.keyFile ?? profile?.keyFile).flatMap(keyIDFromFileName))
            ?? nonEmpty(environment["APNS_MOCK_KEY_ID"]) ?? (keyFromDefaults && keyFile != nil ? defaults.keyID : nil)
        let teamID = flags.teamID ?? profile?.teamID ?? nonEmpty(environment["APNS_MOCK_TEAM_ID"])
            ?? (keyFromDefaults && keyFile != nil ? defaults.teamID : nil)
        if isApple, keyFile == nil {
            throw PushBuildError("Apple's APNs needs your signing key: --key-file AuthKey_KEYID.p8 --key-id KEYID --team-id TEAMID (or --profile)")
        }
        if keyFile != nil, keyID == nil || teamID == nil {
            throw PushBuildError("with a signing key give its --key-id and your --team-id (key ID \(keyID ?? "missing"), team ID \(teamID ?? "missing"))")
        }

        let bundleID = flags.bundleID ?? profile?.bundleID ?? nonEmpty(environment["APNS_MOCK_TOPIC"]) ?? (isApple ? nil : defaults.bundleID)
        let explicitAdmin = flags.adminURL ?? profile?.adminURL ?? nonEmpty(environment["APNS_MOCK_ADMIN_URL"])
        return PushTarget(
            // http/1.1 is offered after h2 only so that a server without HTTP/2 can say so in ALPN.
            endpoint: endpoint, tls: TLSClientConfiguration(caFile: caFile, offerHTTP11: true), keyFile: keyFile, keyID: keyID, teamID: teamID,
            bundleID: bundleID, adminURL: explicitAdmin ?? (source == .defaults ? defaults.adminURL : nil),
            adminURLIsGuess: explicitAdmin == nil, isApple: isApple)
    }

    /// `AuthKey_ABC123DEFG.p8` → `ABC123DEFG` (the name Apple gives the downloaded key).
    package static func keyIDFromFileName(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = name.dropFirst(8).dropLast(3)
        return id.isEmpty ? nil : String(id)
    }

    /// Profiles file: `--profiles-file`, else `$APNS_MOCK_PROFILES`, else `.apns-mock/profiles.json` here, else
    /// `~/.config/apns-mock/profiles.json`.
    static func loadProfile(_ name: String, file: String?, environment: [String: String], home: String, cwd: String) throws(PushBuildError) -> PushProfile {
        let candidates = [file, nonEmpty(environment["APNS_MOCK_PROFILES"]), cwd + "/.apns-mock/profiles.json", home + "/.config/apns-mock/profiles.json"]
        let explicit = file ?? nonEmpty(environment["APNS_MOCK_PROFILES"])
        guard let path = explicit ?? candidates.compactMap({ $0 }).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw PushBuildError("--profile \(name): no profiles file (.apns-mock/profiles.json or ~/.config/apns-mock/profiles.json; or --profiles-file F)")
        }
        struct File: Decodable { var profiles: [String: PushProfile] }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw PushBuildError("cannot read the profiles file \(path): \(error.localizedDescription)")
        }
        let profiles: [String: PushProfile]
        do { profiles = try JSONDecoding.decode(File.self, from: data).profiles } catch {
            throw PushBuildError("profiles file \(path) is not {\"profiles\": {\"NAME\": {\"url\", \"keyFile\", \"keyID\", \"teamID\", \"bundleID\", …}}}: \(error)")
        }
        guard var profile = profiles[name] else {
            throw PushBuildError("no profile \(name) in \(path) (profiles: \(profiles.keys.sorted().joined(separator: ", ")))")
        }
        let directory = (path as NSString).deletingLastPathComponent
        func resolved(_ file: String?) -> String? {
            guard let file, !file.hasPrefix("/") else { return file }
            if file.hasPrefix("~/") { return home + file.dropFirst(1) }
            return directory.isEmpty ? file : directory + "/" + file
        }
        profile.caFile = resolved(profile.caFile)
        profile.keyFile = resolved(profile.keyFile)
        return profile
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
