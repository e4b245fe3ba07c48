import APNSCore
import APNSJSON
import CoreTestSupport
import Testing

/// The case table stays complete: every reason the device-push rules can give and every warning code has a case.
@Suite struct ConformanceCoverageTests {
    /// Reasons issue #3 names, plus those the authenticator can give.
    static let requiredReasons: [Reason] = [
        .badPath, .methodNotAllowed, .missingDeviceToken, .duplicateHeaders, .badMessageId, .badExpirationDate,
        .badPriority, .invalidPushType, .badCollapseId, .missingTopic, .badTopic, .topicDisallowed,
        .deviceTokenNotForTopic, .badDeviceToken, .unregistered, .expiredToken, .payloadEmpty, .payloadTooLarge,
        .badRequestPayload, .missingProviderToken, .invalidProviderToken, .expiredProviderToken,
        .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken, .tooManyProviderTokenUpdates,
    ]

    @Test func everyDevicePushReasonHasACase() throws {
        let expected = Set(try ConformanceTable.load().cases.compactMap(\.expect.reason))
        let missing = Self.requiredReasons.map(\.rawValue).filter { !expected.contains($0) }
        #expect(missing.isEmpty, "reasons without a case: \(missing)")
    }

    @Test func everyWarningCodeHasACase() throws {
        let expected = Set(try ConformanceTable.load().cases.flatMap(\.expect.warnings))
        let missing = PushWarningCode.allCases.map(\.rawValue).filter { !expected.contains($0) }
        #expect(missing.isEmpty, "warning codes without a case: \(missing)")
    }

    /// Every stage of the push pipeline after the rules has cases: scripted answers, the simulated device (with
    /// earlier pushes), device-strict mode, and strict mode on a device warning.
    @Test func everyPipelineStageHasACase() throws {
        let cases = try ConformanceTable.load().cases
        #expect(cases.contains { !($0.configuration?.scriptedAnswers ?? []).isEmpty }, "no scripted-answer case")
        #expect(cases.contains { ($0.expect.liveActivity ?? "none") != "none" }, "no Live Activity device case")
        #expect(cases.contains { !($0.before ?? []).isEmpty }, "no case with earlier pushes")
        #expect(cases.contains { $0.configuration?.liveActivities?["strict"] == .bool(true) }, "no device-strict case")
        #expect(cases.contains { ($0.configuration?.strict ?? []).contains { $0.hasPrefix("la-") } },
                "no strict case on a device warning")
    }

    @Test func caseIdentifiersAreUnique() throws {
        let ids = try ConformanceTable.load().cases.map(\.id)
        #expect(Set(ids).count == ids.count)
    }
}
