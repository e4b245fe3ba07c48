import Foundation
import Testing
@testable import APNSConformance

@Suite struct ScenarioTests {
    static let json = #"""
    {"name":"s","title":"t","grades":["device"],"faults":[{"deviceToken":"aa","status":410,"reason":"Unregistered"}],
     "pushes":[
       {"token":"aa","pushType":"liveactivity","priority":5,"count":2,"timestampOffset":10,"aps":{"event":"update","content-state":{"n":1}}},
       {"token":"bb","count":2,"aps":{"sound":"default"}}]}
    """#

    @Test func instructionsExpandCountsSetTimestampsAndTopics() throws {
        let scenario = try JSONDecoder().decode(Scenario.self, from: Data(Self.json.utf8))
        #expect(scenario.pushCount == 4)
        #expect(scenario.faults?.first?.text == #"{"deviceToken":"aa","reason":"Unregistered","status":410}"#)
        let object = try JSONSerialization.jsonObject(with: scenario.instructions(bundleID: "com.example.app", now: 1000)) as! [String: Any]
        let pushes = object["pushes"] as! [[String: Any]]
        #expect(pushes.count == 4)
        #expect(pushes[0]["topic"] as? String == "com.example.app.push-type.liveactivity")
        #expect(pushes[0]["priority"] as? Int == 5)
        #expect((pushes[0]["payload"] as? String)?.contains(#""timestamp":1010"#) == true)
        #expect((pushes[1]["payload"] as? String)?.contains(#""timestamp":1011"#) == true, "each repeat is later")
        #expect(pushes[2]["topic"] as? String == "com.example.app" && pushes[2]["pushType"] as? String == "alert")
        #expect(pushes[2]["payload"] as? String != pushes[3]["payload"] as? String, "repeated alerts are distinct pushes, not retries")
    }

    @Test func everyShippedScenarioLoads() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Conformance/scenarios")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).filter { $0.pathExtension == "json" }
        #expect(files.count >= 7)
        for file in files {
            let scenario = try Scenario.load(file)
            #expect(file.lastPathComponent == scenario.name + ".json")
            #expect(!scenario.grades.isEmpty && scenario.pushCount > 0)
            for prefix in scenario.grades {
                #expect(ConformanceRule.all.contains { $0.id.hasPrefix(prefix) }, "\(scenario.name) grades \(prefix)")
            }
        }
    }
}
