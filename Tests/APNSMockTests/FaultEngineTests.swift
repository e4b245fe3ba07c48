@testable import APNSCore
import Testing
@testable import APNSMock

/// Which fault applies to which request: matching, scopes (next N, every Nth, seeded probability, time window),
/// counters, and `unregisterAfter`.
@Suite struct FaultEngineTests {
    static let answer503 = FaultAction.answer(status: 503, reason: .serviceUnavailable, timestamp: nil, goAway: false)
    static let sender = FaultRequest(
        deviceToken: "aa", topic: "com.example.app", keyID: "ABC123DEFG", teamID: "TEAM123456", connection: 3,
        pushType: "alert")

    static let matches: [(match: FaultMatch, fires: Bool)] = [
        (FaultMatch(), true),
        (FaultMatch(deviceToken: "AA"), true),
        (FaultMatch(deviceToken: "bb"), false),
        (FaultMatch(topic: "com.example.app"), true),
        (FaultMatch(topic: "com.other"), false),
        (FaultMatch(keyID: "ABC123DEFG"), true),
        (FaultMatch(keyID: "OTHER"), false),
        (FaultMatch(teamID: "TEAM123456"), true),
        (FaultMatch(teamID: "TEAM000000"), false),
        (FaultMatch(connection: 3), true),
        (FaultMatch(connection: 4), false),
        (FaultMatch(pushType: "alert"), true),
        (FaultMatch(pushType: "background"), false),
        (FaultMatch(deviceToken: "aa", topic: "com.other"), false),
    ]

    @Test(arguments: matches.indices)
    func aFaultFiresOnlyForRequestsItsMatchKeysDescribe(index: Int) {
        let (match, fires) = Self.matches[index]
        let engine = FaultEngine([FaultSpec(match: match, action: .blackHole)])
        #expect((engine.evaluate(Self.sender) != nil) == fires)
    }

    @Test func remainingFiresForTheNextNMatchesThenTheSpecIsRemoved() {
        let engine = FaultEngine([FaultSpec(action: Self.answer503, scope: FaultScope(remaining: 3))])
        let fired = (0..<5).map { _ in engine.evaluate(Self.sender) != nil }
        #expect(fired == [true, true, true, false, false])
        #expect(engine.specs.isEmpty)
    }

    @Test func everyFiresOnEveryNthMatchAndCountsMatchesAndFirings() {
        let engine = FaultEngine([FaultSpec(action: .resetStream(.REFUSED_STREAM), scope: FaultScope(every: 3))])
        let fired = (0..<7).map { _ in engine.evaluate(Self.sender) != nil }
        #expect(fired == [false, false, true, false, false, true, false])
        #expect(engine.statuses.map { [$0.matched, $0.fired] } == [[7, 2]])
    }

    @Test func theSameSeedGivesTheSameSequenceAndAnotherSeedAnother() {
        func run(seed: UInt64) -> [Bool] {
            let engine = FaultEngine([FaultSpec(action: Self.answer503, scope: FaultScope(probability: 0.3, seed: seed))])
            return (0..<200).map { _ in engine.evaluate(Self.sender) != nil }
        }
        let first = run(seed: 7)
        #expect(first == run(seed: 7))
        #expect(first != run(seed: 8))
        let rate = Double(first.filter { $0 }.count) / 200
        #expect(rate > 0.15 && rate < 0.45, "about 30% fire (got \(rate))")
    }

    @Test func probabilityZeroNeverFiresAndOneAlwaysFires() {
        let never = FaultEngine([FaultSpec(action: .blackHole, scope: FaultScope(probability: 0, seed: 1))])
        let always = FaultEngine([FaultSpec(action: .blackHole, scope: FaultScope(probability: 1, seed: 1))])
        #expect((0..<50).allSatisfy { _ in never.evaluate(Self.sender) == nil })
        #expect((0..<50).allSatisfy { _ in always.evaluate(Self.sender) != nil })
    }

    @Test func aSpecWithoutSeedGetsOneThatIsShownSoTheRunCanBeRepeated() {
        let engine = FaultEngine([FaultSpec(action: .blackHole, scope: FaultScope(probability: 0.5))])
        #expect(engine.specs[0].scope.seed != nil)
    }

    @Test func theTimeWindowLimitsAFaultToFromUntil() {
        let engine = FaultEngine([FaultSpec(action: .blackHole, scope: FaultScope(from: 100, until: 200))])
        func at(_ seconds: Double) -> Bool {
            var request = Self.sender
            request.now = Timestamp(secondsSinceEpoch: seconds)
            return engine.evaluate(request) != nil
        }
        #expect([at(99), at(100), at(199), at(200)] == [false, true, true, false])
        #expect(engine.statuses[0].matched == 2, "requests outside the window are not counted")
    }

    @Test func theFirstFiringSpecWinsAndLaterOnesAreNotConsulted() {
        let engine = FaultEngine([
            FaultSpec(match: FaultMatch(deviceToken: "bb"), action: .blackHole),
            FaultSpec(action: .closeConnection),
            FaultSpec(action: .blackHole),
        ])
        let firing = engine.evaluate(Self.sender)
        #expect(firing?.index == 1)
        #expect(firing?.effect == .action(.closeConnection))
        #expect(engine.statuses.map(\.matched) == [0, 1, 0])
    }

    @Test func aDelayRangeIsDrawnFromTheSeededSequenceWithinItsBounds() {
        func draws(seed: UInt64) -> [Int] {
            let engine = FaultEngine([FaultSpec(action: .delay(minMilliseconds: 10, maxMilliseconds: 20), scope: FaultScope(seed: seed))])
            return (0..<50).compactMap { _ in
                if case .delay(let ms)? = engine.evaluate(Self.sender)?.effect { ms } else { nil }
            }
        }
        let first = draws(seed: 5)
        #expect(first.count == 50 && first.allSatisfy { (10...20).contains($0) })
        #expect(first == draws(seed: 5))
        #expect(Set(first).count > 1)
    }

    @Test func goAwayAfterStreamsFiresFromTheNthRequestOnAConnection() {
        let engine = FaultEngine([FaultSpec(action: .goAway(FaultGoAway(afterStreams: 3)))])
        let fired = (1...4).map { count -> Bool in
            var request = Self.sender
            request.requestsOnConnection = count
            return engine.evaluate(request) != nil
        }
        #expect(fired == [false, false, true, true])
    }

    @Test func unregisterAfterFlipsADeclaredTokenInTheRegistrySoTheRulesAnswer410() {
        let tokens = DeviceTokenRegistry([DeclaredDeviceToken(token: "aa", bundleID: "com.example.app")])
        let engine = FaultEngine([FaultSpec(match: FaultMatch(deviceToken: "aa"), action: .unregisterAfter(2))], tokens: tokens)
        var request = Self.sender
        request.now = Timestamp(secondsSinceEpoch: 1_767_225_600)
        #expect(engine.evaluate(request) == nil)
        guard case .declared(let before) = tokens.lookup("aa") else { Issue.record("declared"); return }
        #expect(before.state == .active, "one push answered normally, one to go")
        #expect(engine.evaluate(request) == nil)
        guard case .declared(let after) = tokens.lookup("aa") else { Issue.record("declared"); return }
        #expect(after.state == .unregistered(at: Timestamp(secondsSinceEpoch: 1_767_225_600)))
        #expect(engine.evaluate(request) == nil, "from now on the rules answer 410 themselves")
    }

    @Test func unregisterAfterAnswers410ItselfForAnUndeclaredToken() {
        let tokens = DeviceTokenRegistry()
        let engine = FaultEngine([FaultSpec(action: .unregisterAfter(1))], tokens: tokens)
        var request = Self.sender
        request.now = Timestamp(secondsSinceEpoch: 50)
        #expect(engine.evaluate(request) == nil)
        #expect(engine.evaluate(request)?.effect == .unregistered(since: Timestamp(secondsSinceEpoch: 50)))
        request.deviceToken = "bb"
        #expect(engine.evaluate(request) == nil, "each token counts its own pushes")
        #expect(tokens.all().isEmpty, "the registry stays empty: declaring a token would reject every other")
    }

    @Test func unregisterAfterZeroAnswers410AtOnce() {
        let engine = FaultEngine([FaultSpec(action: .unregisterAfter(0))])
        if case .unregistered? = engine.evaluate(Self.sender)?.effect {} else { Issue.record("410 at once") }
    }

    @Test func theScriptedAnswersFacadeKeepsItsAPIOverTheEngine() {
        let scripts = ScriptedAnswers()
        scripts.add(ScriptedAnswer(deviceToken: "AA", status: 410, reason: "Unregistered", remaining: 1))
        scripts.add(FaultSpec(action: .blackHole))
        #expect(scripts.all.count == 1, "only status answers have the scripted-answer form")
        #expect(scripts.take(deviceToken: "aa", topic: nil)?.status == 410)
        #expect(scripts.engine.specs == [FaultSpec(action: .blackHole)])
    }
}

/// `isEmpty` (which lets a push skip fault matching) follows the list through adds, a spec used up, and removal.
@Suite struct FaultEngineEmptinessTests {
    @Test func isEmptyFollowsTheList() {
        let engine = FaultEngine()
        #expect(engine.isEmpty)
        engine.add(FaultSpec(action: FaultEngineTests.answer503, scope: FaultScope(remaining: 1)))
        #expect(!engine.isEmpty)
        #expect(engine.evaluate(FaultEngineTests.sender) != nil)
        #expect(engine.isEmpty, "the spec was used up and removed")
        engine.add(FaultSpec(action: .blackHole))
        engine.add(FaultSpec(action: .blackHole))
        #expect(!engine.isEmpty)
        engine.removeAll()
        #expect(engine.isEmpty)
        #expect(!FaultEngine([FaultSpec(action: .blackHole)]).isEmpty)
    }
}
