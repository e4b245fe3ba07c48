import APNSCore
import Foundation
import Testing
@testable import APNSCommandLine

/// `push --requests FILE` reads the conformance runner's scenario instructions (and bare arrays).
@Suite struct PushRequestsFileTests {
    @Test func readsScenarioInstructions() throws {
        let text = #"""
        {"scenario":"x","pushes":[
          {"deviceToken":"aa11","pushType":"liveactivity","topic":"com.example.app.push-type.liveactivity","priority":10,
           "payload":"{\"aps\":{\"event\":\"end\",\"timestamp\":5}}"},
          {"deviceToken":"bb22","payload":{"aps":{"alert":"x"}}}
        ]}
        """#
        var defaults = PushNotification(deviceToken: "")
        defaults.bundleID = "com.example.app"
        let pushes = try PushRequestsFile.parse(Data(text.utf8), defaults: defaults)
        #expect(pushes.count == 2)
        #expect(pushes[0].pushType == .liveactivity)
        #expect(pushes[0].priority == 10)
        #expect(pushes[0].topic == "com.example.app.push-type.liveactivity")
        let second = try PushRequestBuilder.build(pushes[1], now: .zero)
        #expect(second.topic == "com.example.app")
        #expect(String(decoding: second.request.body, as: UTF8.self) == #"{"aps":{"alert":"x"}}"#)
    }

    @Test(arguments: [
        "not json", #"{"nopushes":[]}"#, #"[{"pushType":"alert"}]"#, #"[{"deviceToken":"aa","pushType":"telegram"}]"#,
        #"[{"deviceToken":"aa","priority":"high"}]"#, #"[{"deviceToken":"aa","color":"red"}]"#, #"[7]"#,
    ])
    func refusesBadFiles(text: String) {
        #expect(throws: PushBuildError.self) { try PushRequestsFile.parse(Data(text.utf8), defaults: PushNotification(deviceToken: "")) }
    }
}
