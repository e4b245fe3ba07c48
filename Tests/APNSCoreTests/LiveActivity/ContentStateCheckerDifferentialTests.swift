import APNSJSON
import APNSCore
import Foundation
import Testing

/// The checker against the real thing: `Fixtures/DecoderVerdicts/verdicts.tsv` holds 1 327 content-state variants
/// of three fixture types (keys removed, set to null and to values of every JSON type) with the verdict Swift's
/// own `JSONDecoder` gave each when decoding the fixture structs compiled by `swiftc` (see `make-verdicts.sh`).
/// The schemas derived from the same fixtures must reach the same verdict on every line.
@Suite struct ContentStateCheckerDifferentialTests {
    struct Verdict: Sendable {
        var type: String
        var decodes: Bool
        var json: String
    }

    static func verdicts() throws -> [Verdict] {
        let path = Fixtures.path("DecoderVerdicts/verdicts.tsv")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 2).map(String.init)
            return Verdict(type: parts[0], decodes: parts[1] == "OK", json: parts[2])
        }
    }

    @Test func agreesWithJSONDecoderOnEveryRecordedCase() throws {
        let verdicts = try Self.verdicts()
        #expect(verdicts.count > 1000)
        #expect(verdicts.contains { $0.decodes } && verdicts.contains { !$0.decodes })
        var disagreements: [String] = []
        for verdict in verdicts {
            let schema = try #require(Fixtures.schema(verdict.type))
            let issues = ContentStateChecker.check(
                try JSONParser.parse(verdict.json), fields: schema.contentState, path: "content-state")
            let decodes = ContentStateChecker.firstFatal(issues) == nil
            if decodes != verdict.decodes {
                disagreements.append("\(verdict.type) \(verdict.json): JSONDecoder \(verdict.decodes), checker \(decodes)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
