@testable import APNSCore
import DeliveryFixtures
import APNSCommandLine
import Foundation
import Testing

@testable import APNSStore

@Suite("What deliveries and explain print")
struct CommandLineRenderingTests {
    @Test("colour never with NO_COLOR, and never when output is not a terminal")
    func noColour() {
        #expect(TerminalStyle.current(environment: ["NO_COLOR": "1"]).colour == false)
        // Under `swift test` standard output is a pipe, not a terminal.
        #expect(TerminalStyle.current(environment: [:]).colour == false)
        #expect(TerminalStyle(colour: false, width: 80).paint("x", .red) == "x")
        #expect(TerminalStyle(colour: true, width: 80).paint("x", .red) == "\u{1B}[31mx\u{1B}[0m")
    }

    @Test("table columns line up and the explanation is cut to the width")
    func alignedTable() {
        let records = [
            makeRecord(token: "aa11", status: 200).withID(7),
            makeRecord(token: String(repeating: "b", count: 64), status: 400, reason: "BadDeviceToken",
                       explanation: String(repeating: "long explanation ", count: 20)).withID(1234),
        ]
        let output = DeliveryTable.render(records, style: TerminalStyle(colour: false, width: 100))
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let statusColumn = lines.map { $0.range(of: lines[0].contains("STATUS") ? "STATUS" : "")?.lowerBound }
        let start = lines[0].distance(from: lines[0].startIndex, to: statusColumn[0]!)
        #expect(lines[1].dropFirst(start).hasPrefix("200"))
        #expect(lines[2].dropFirst(start).hasPrefix("400"))
        #expect(lines.allSatisfy { $0.count <= 100 })
        #expect(lines[2].hasSuffix("…"))
    }

    @Test("explain shows verdict, reason, explanation, JWT and the payload pretty-printed")
    func explain() {
        let record = makeRecord(status: 403, reason: "ExpiredProviderToken", explanation: "iat is 2 hours old",
                                payload: #"{"aps":{"alert":"<b>hi</b>"}}"#)
        let text = DeliveryExplanation.render(record, style: TerminalStyle(colour: false, width: 100))
        #expect(text.hasPrefix("REJECTED  403 ExpiredProviderToken"))
        #expect(text.contains("iat is 2 hours old"))
        #expect(text.contains(#""kid" : "ABC123DEFG""#))
        #expect(text.contains("    \"aps\" : {"))
        #expect(!text.contains("bearer ey"))
    }
}
