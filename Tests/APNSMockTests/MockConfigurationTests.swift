import APNSCore
import Foundation
import Testing
@testable import APNSMock

@Suite struct MockConfigurationTests {
    /// A value that cannot work is refused before anything starts, from a flag or the file alike (a port above
    /// 65535 used to trap in the transport, and the admin port was clamped to 65535).
    @Test(arguments: [
        ("{\"port\": 70000}", "--port"), ("{\"admin\": {\"port\": 99999}}", "--admin-port"),
        ("{\"h2cPort\": -1}", "--h2c-port"), ("{\"managePort\": 65536}", "--manage-port"),
        ("{\"threads\": 0}", "--threads"), ("{\"limits\": {\"idleTimeoutSeconds\": 0}}", "idleTimeoutSeconds"),
        ("{\"limits\": {\"connectionBodyBufferBytes\": -1}}", "connectionBodyBufferBytes"),
    ])
    func aValueThatCannotWorkIsRefusedNamingItsFlagOrKey(json: String, named: String) throws {
        let configuration = try MockConfiguration.decode(Data(json.utf8))
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do { try configuration.validate() } catch { #expect("\(error)".contains(named)) }
    }

    @Test func theEdgesOfEachRangeAreAccepted() throws {
        let configuration = try MockConfiguration.decode(Data(
            "{\"port\": 0, \"h2cPort\": 65535, \"admin\": {\"port\": 0}, \"threads\": 1}".utf8))
        try configuration.validate()
    }

    @Test func anEmptyFileKeepsEveryDefault() throws {
        let configuration = try MockConfiguration.decode(Data("{}".utf8))
        #expect(configuration == MockConfiguration())
        #expect(configuration.port == 2197)
        #expect(configuration.admin.port == 2198)
        #expect(configuration.environment == .development)
    }

    @Test func aPartialFileOverridesOnlyWhatItNames() throws {
        let json = """
            {"port": 0, "admin": {"token": "s3cret"}, "environment": "production",
             "teams": [{"teamID": "TEAM123456", "keys": [{"keyID": "ABC123DEFG", "p8": "certs/AuthKey_ABC123DEFG.p8"}]}],
             "tokens": [{"token": "aabb", "bundleID": "com.example.app", "state": "unregistered", "stateSince": 1700000000000}]}
            """
        let configuration = try MockConfiguration.decode(Data(json.utf8))
        #expect(configuration.port == 0)
        #expect(configuration.admin.token == "s3cret")
        #expect(configuration.admin.port == 2198, "a nested default survives a partial nested object")
        #expect(configuration.environment == .production)
        #expect(configuration.teams.first?.keys?.first?.keyID == "ABC123DEFG")
        #expect(configuration.tokens.first?.state == .unregistered(at: Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)))
    }

    @Test(arguments: [
        ("[1, 2]", "top level"),
        ("{\"port\": \"x\"}", "port"),
        ("{\"environment\": \"staging\"}", "environment"),
        ("not json", "not valid JSON"),
    ])
    func aBadFileNamesWhatIsWrong(json: String, mentioned: String) {
        #expect {
            try MockConfiguration.decode(Data(json.utf8), source: "test.json")
        } throws: { error in
            "\(error)".contains(mentioned) && "\(error)".contains("test.json")
        }
    }

    @Test func strictAllTurnsEveryRequestWarningCodeIntoAMockRejection() throws {
        var configuration = MockConfiguration()
        configuration.rules.strictAll = true
        let rules = try MockServer.ruleConfiguration(configuration)
        #expect(rules.strict.count == PushWarningCode.allCases.count + AuthWarningCode.allCases.count)
        #expect(rules.strictRejection(for: AuthWarningCode.issuedAtString.rawValue) != nil)
        #expect(rules.strict.allSatisfy { $0.wireReason.hasPrefix("MockStrict") })
    }

    @Test(arguments: ["la-timestamp-milliseconds", "jwt-iat-string", "background-priority-10"])
    func strictTakesEveryCatalogueCode(code: String) throws {
        var configuration = MockConfiguration()
        configuration.rules.strict = [code]
        #expect(try MockServer.ruleConfiguration(configuration).strictRejection(for: code) != nil)
    }

    @Test func anUnknownStrictCodeIsRefusedWithASuggestion() {
        var configuration = MockConfiguration()
        configuration.rules.strict = ["la-timestamp-milisecond"]
        #expect {
            try MockServer.ruleConfiguration(configuration)
        } throws: { error in
            "\(error)".contains("unknown warning code \"la-timestamp-milisecond\"")
                && "\(error)".contains("did you mean \"la-timestamp-milliseconds\"")
        }
    }

    @Test func unknownPolicyNamesAreRefused() {
        var configuration = MockConfiguration()
        configuration.rules.nonJSONBody = "maybe"
        #expect(throws: ConfigurationError.self) { try MockServer.ruleConfiguration(configuration) }
    }
}

@Suite struct StartupAnnouncementTests {
    @Test func theLineIsOneJSONObjectWithEveryKeyEvenAbsentPorts() throws {
        let line = StartupAnnouncement(
            host: "127.0.0.1", tlsPort: 40000, h2cPort: nil, productionPort: nil, adminPort: 40001, adminHost: "127.0.0.1",
            environment: "development", pid: 42, threads: 2, dataDir: nil
        ).line()
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "listening")
        #expect(object["tls_port"] as? Int == 40000)
        #expect(object["h2c_port"] is NSNull)
        #expect(object["production_port"] is NSNull)
        #expect(object["data_dir"] is NSNull)
        #expect(object["admin_port"] as? Int == 40001)
    }

    /// Runners read this line byte for byte in some setups: keys sorted, absent values `null`, slashes as they are.
    @Test func theLineKeepsItsExactForm() {
        let line = StartupAnnouncement(
            host: "127.0.0.1", tlsPort: 40000, h2cPort: nil, productionPort: 40002, adminPort: 40001,
            adminHost: nil, environment: "development", pid: 42, threads: 2, dataDir: "/tmp/apns data"
        ).line()
        #expect(line == #"{"admin_host":null,"admin_port":40001,"data_dir":"/tmp/apns data","environment":"development","#
            + #""event":"listening","h2c_port":null,"host":"127.0.0.1","pid":42,"production_port":40002,"threads":2,"#
            + #""tls_port":40000}"#)
    }

    /// A store degraded at start-up is said on the line, with the reason; a working one adds no key.
    @Test func aDegradedStoreIsSaidWithItsReason() throws {
        let line = StartupAnnouncement(
            host: "127.0.0.1", tlsPort: 40000, h2cPort: nil, productionPort: nil, adminPort: nil, adminHost: nil,
            environment: "development", pid: 42, threads: 2, dataDir: "d", storeProblem: "delivery 7 could not be decoded"
        ).line()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["store_status"] as? String == "degraded")
        #expect(object["store_problem"] as? String == "delivery 7 could not be decoded")
        let decoded = try JSONDecoder().decode(StartupAnnouncement.self, from: Data(line.utf8))
        #expect(decoded.storeProblem == "delivery 7 could not be decoded")
    }
}
