import APNSCore
import Foundation
import Testing
@testable import APNSMock

/// `--config FILE` refuses a wrong file with one line that names the file, the line and column, and what to do;
/// it never ignores an unknown or misspelled key.
@Suite("Configuration files are refused when wrong, with file, line and column")
struct ConfigurationFileCheckTests {
    static let cases: [(name: String, json: String, message: String)] = [
        ("trailing comma in an object", "{\n  \"port\": 0,\n}",
         "configuration bad.json:3:1: trailing comma before '}' (JSON allows no comma after the last member)"),
        ("trailing comma in an array", "{\"liveActivities\": {\"sources\": [\"a\",]}}",
         "configuration bad.json:1:37: trailing comma before ']' (JSON allows no comma after the last element)"),
        ("file cut short", "{\n  \"admin\": {\"port\": 0",
         "configuration bad.json:2:22: the file ends inside an object opened at 2:12 (is it cut short?)"),
        ("comment", "{\n  // port\n  \"port\": 0\n}", "configuration bad.json:2:3: comments are not allowed in JSON"),
        ("single quotes", "{'port': 0}", "configuration bad.json:1:2: expected a key in double quotes, found '''"),
        ("missing comma", "{\"port\": 0 \"host\": \"x\"}",
         "configuration bad.json:1:12: expected ',' or '}' after the value of \"port\", found '\"'"),
        ("duplicate key", "{\"port\": 0,\n \"port\": 1}",
         "configuration bad.json:2:2: key \"port\" appears twice in this object (first at 1:2)"),
        ("empty file", "", "configuration bad.json:1:1: the file is empty; write {} for all defaults"),
        ("top level not an object", "[]", "configuration bad.json: the top level must be a JSON object ({ ... })"),
        ("misspelled top-level key", "{\"liveActivity\": {}}",
         "configuration bad.json:1:2: unknown key \"liveActivity\" at the top level; did you mean \"liveActivities\"?"),
        ("flattened key", "{\"adminPort\": 2299}",
         "configuration bad.json:1:2: unknown key \"adminPort\" at the top level; did you mean \"admin\": {\"port\": ...}?"),
        ("misspelled nested key", "{\"admin\": {\"prot\": 1}}",
         "configuration bad.json:1:12: unknown key \"prot\" in admin; did you mean \"port\"?"),
        ("misspelled key inside an array element",
         "{\"teams\": [{\"teamID\": \"TEAM123456\", \"keys\": [{\"keyId\": \"ABC123DEFG\"}]}]}",
         "configuration bad.json:1:47: unknown key \"keyId\" in teams[0].keys[0]; did you mean \"keyID\"?"),
        ("teams inside authentication (the old documented shape)", "{\"authentication\": {\"teams\": []}}",
         "configuration bad.json:1:21: unknown key \"teams\" in authentication; \"teams\" belongs at the top level"),
    ]

    @Test("a bad file gets exactly this message", arguments: cases.indices)
    func badFile(index: Int) {
        let (name, json, message) = Self.cases[index]
        do {
            try ConfigurationFileCheck.check(Data(json.utf8), path: "bad.json")
            Issue.record("\(name): accepted")
        } catch {
            // The list of known keys follows in parentheses; the part before it is the exact message.
            let text = error.description
            let head = text.range(of: " (known keys here:").map { String(text[..<$0.lowerBound]) } ?? text
            #expect(head == message, "\(name)")
        }
    }

    @Test("an unknown key lists the keys that are allowed there")
    func knownKeysListed() {
        #expect(throws: ConfigurationError.self) { try ConfigurationFileCheck.check(Data(#"{"tls":{"cert":"x"}}"#.utf8), path: "f") }
        do { try ConfigurationFileCheck.check(Data(#"{"tls":{"cert":"x"}}"#.utf8), path: "f") } catch {
            #expect(error.description.hasSuffix("(known keys here: \"certificate\", \"clientCertificateAuthority\", \"privateKey\")"))
        }
    }

    @Test("a missing file is one line that names it, no NSCocoaErrorDomain")
    func missingFile() {
        do {
            _ = try MockConfiguration.load(path: "/nonexistent/apns-mock.json")
            Issue.record("loaded a missing file")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("configuration /nonexistent/apns-mock.json: no such file"))
            #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("\n"))
        }
    }

    @Test("the examples in docs/configuration.md and docs/authentication.md and an empty object pass the check")
    func documentedExamplePasses() throws {
        try ConfigurationFileCheck.check(Data("{}".utf8), path: "empty.json")
        for page in ["docs/configuration.md", "docs/authentication.md"] {
            let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(page)
            let text = try String(contentsOf: docs, encoding: .utf8)
            let start = try #require(text.range(of: "```json\n"))
            let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
            try ConfigurationFileCheck.check(Data(text[start.upperBound..<end.lowerBound].utf8), path: page)
            _ = try MockConfiguration.decode(Data(text[start.upperBound..<end.lowerBound].utf8), source: page)
        }
    }

    /// The schema is derived from the Codable keys: every key a configuration with every field set encodes must be
    /// allowed, or users' valid files would be refused.
    @Test("every key the configuration types encode is in the key schema")
    func schemaCoversCodableKeys() throws {
        var configuration = MockConfiguration()
        configuration.h2cPort = 1
        configuration.productionPort = 2
        configuration.admin.token = "t"
        configuration.tls.certificate = "c"
        configuration.tls.privateKey = "k"
        configuration.dataDir = "d"
        configuration.threads = 1
        configuration.sampleCredentials = true
        configuration.allowUnauthenticated = true
        configuration.rules.strict = ["x"]
        configuration.rules.strictAll = true
        configuration.rules.nonJSONBody = "warn"
        configuration.rules.undeclaredTokens = "warn"
        configuration.liveActivities.sources = ["s"]
        configuration.liveActivities.schemaFiles = ["f"]
        configuration.liveActivities.budgetPerHour = 1
        configuration.liveActivities.frequentUpdates = true
        configuration.liveActivities.issueUpdateTokens = true
        configuration.liveActivities.strict = true
        configuration.liveActivities.timelineLimit = 1
        configuration.liveActivities.timelineTotalLimit = 1
        configuration.retention.maxDeliveries = 1
        configuration.retention.maxAgeSeconds = 1
        let full = """
            {"teams": [{"teamID": "TEAM123456", "bundleIDs": ["a"], "keys": [{"keyID": "ABC123DEFG", "p8": "p",
              "publicKeyPath": "q", "publicKeyPEM": "r", "environment": "both", "topics": ["a"], "relatedKeyID": "ABC123DEFH"}]}],
             "tokens": [{"token": "aa", "bundleID": "b", "kind": "other", "topicSuffix": ".x", "environment": "production",
               "state": "unregistered", "stateSince": 1}],
             "scriptedAnswers": [{"deviceToken": "aa", "topic": "t", "status": 410, "reason": "Unregistered",
               "timestamp": 1, "goAway": true, "remaining": 1}]}
            """
        let lists = try MockConfiguration.decode(Data(full.utf8))
        configuration.teams = lists.teams
        configuration.tokens = lists.tokens
        configuration.scriptedAnswers = lists.scriptedAnswers
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration))
        var missing: [String] = []
        func walk(_ value: Any, _ schema: ConfigurationKeySchema, _ path: String) {
            switch (value, schema) {
            case (let object as [String: Any], .object(let keys)):
                for (key, child) in object {
                    guard let childSchema = keys[key] else { missing.append(path + "." + key); continue }
                    walk(child, childSchema, path + "." + key)
                }
            case (let array as [Any], .array(let element)):
                for child in array { walk(child, element, path + "[]") }
            case (is [String: Any], _), (is [Any], _):
                if case .open = schema { return }
                missing.append(path + " (schema says a plain value)")
            default:
                return
            }
        }
        walk(encoded, .configuration, "")
        #expect(missing.isEmpty, "keys the Codable types write but the schema refuses: \(missing)")
        // And the encoded form passes the check itself.
        try ConfigurationFileCheck.check(try JSONEncoder().encode(configuration), path: "encoded.json")
    }
}
