import APNSCore
import Testing

@Suite struct PushTypeTests {
    @Test func payloadLimitIs4096ExceptVoIP() {
        for pushType in PushType.allCases {
            #expect(pushType.payloadLimit == (pushType == .voip ? 5120 : 4096))
        }
    }

    /// The raw-value initializer picks one candidate by length and first byte: every spelling and its near misses
    /// give what comparing with each case's spelling gives.
    @Test func rawValueIsTheExactLowerCaseSpelling() {
        for pushType in PushType.allCases {
            let name = pushType.rawValue
            #expect(PushType(rawValue: name) == pushType)
            for miss in [name.uppercased(), name + "s", String(name.dropLast()), String(name.dropFirst()), " " + name,
                         "x" + name.dropFirst(), String(name.dropLast()) + "x"] {
                #expect(PushType(rawValue: miss) == PushType.allCases.first { $0.rawValue == miss }, "\(miss)")
            }
        }
        for other in ["", "a", "liveActivity", "live-activity", "LIVEACTIVITY", "liveactivitie", "controller"] {
            #expect(PushType(rawValue: other) == nil)
        }
    }

    @Test(arguments: [
        ("com.example.app", nil),
        ("com.example.app.voip", PushType.voip),
        ("com.example.app.voip-ptt", .pushtotalk),
        ("com.example.app.push-type.liveactivity", .liveactivity),
        ("com.example.app.pushkit.fileprovider", .fileprovider),
        ("com.example.app.location-query", .location),
        ("com.example.app.complication", .complication),
        ("com.example.app.push-type.widgets", .widgets),
        ("com.example.app.push-type.controls", .controls),
    ] as [(String, PushType?)])
    func topicSuffixImpliesItsPushType(_ topic: String, _ pushType: PushType?) {
        #expect(PushType.implied(byTopic: topic) == pushType)
    }

    @Test func everySuffixedTypeRoundTripsThroughItsSuffix() {
        for pushType in PushType.allCases where !pushType.topicSuffix.isEmpty {
            #expect(PushType.implied(byTopic: "com.example.app" + pushType.topicSuffix) == pushType)
        }
    }

    @Test func onlyLiveActivityAndLocationRequireTokenAuthentication() {
        #expect(PushType.allCases.filter(\.requiresTokenAuthentication) == [.location, .liveactivity])
    }
}
