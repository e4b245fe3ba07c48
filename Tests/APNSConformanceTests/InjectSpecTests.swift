import Foundation
import Testing
@testable import APNSConformance

@Suite struct InjectSpecTests {
    @Test(arguments: [
        ("Unregistered:5%", #"{"probability":0.05,"reason":"Unregistered","seed":7,"status":410}"#),
        ("ServiceUnavailable", #"{"reason":"ServiceUnavailable","status":503}"#),
        ("goaway:every=500", #"{"every":500,"goaway":{"after":"answer","reason":"Shutdown"}}"#),
        ("goaway", #"{"goaway":{"after":"answer","reason":"Shutdown"}}"#),
        ("reset:every=3", #"{"every":3,"resetStream":"REFUSED_STREAM"}"#),
        ("reset:10%", #"{"probability":0.1,"resetStream":"REFUSED_STREAM","seed":7}"#),
        ("blackhole:1%", #"{"blackHole":true,"probability":0.01,"seed":7}"#),
        ("delay=50", #"{"delayMs":50}"#),
        ("delay=50:20%", #"{"delayMs":50,"probability":0.2,"seed":7}"#),
    ])
    func eachFormTranslatesToAFaultSpec(text: String, json: String) throws {
        let spec = try InjectSpec.parse(text, seed: 7)
        let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! NSDictionary
        let actual = try JSONSerialization.jsonObject(with: Data(spec.faultJSON.utf8)) as! NSDictionary
        #expect(actual == expected, "\(spec.faultJSON)")
    }

    @Test(arguments: ["Unregisterd:5%", "unregistered", "Unregistered:0%", "Unregistered:150%", "goaway:5%",
                      "blackhole:every=2", "delay=abc", "delay=0", "reset:every=0", "", "Unregistered:5"])
    func aBadSpecIsRefusedWithAReason(text: String) {
        #expect(throws: InjectSpec.ParseError.self) { try InjectSpec.parse(text, seed: 1) }
    }

    @Test func aMisspelledCaseSuggestsTheReason() {
        #expect { try InjectSpec.parse("unregistered:5%", seed: 1) } throws: { error in
            "\(error)".contains("did you mean Unregistered?")
        }
    }

    @Test func theKeysAnEngineMustHonourAreNamed() throws {
        #expect(try InjectSpec.parse("Unregistered:5%", seed: 1).requiredKeys == ["probability", "seed"])
        #expect(try InjectSpec.parse("goaway:every=2", seed: 1).requiredKeys == ["every", "goaway"])
    }
}
