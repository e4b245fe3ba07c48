import Testing
@testable import HTTP2

/// What a connection's timer does at a given moment: close a stuck handshake, reset requests that stopped
/// sending, GOAWAY an idle connection, then close it if it does not go.
@Suite struct ConnectionTimeoutsTests {
    static let second: UInt64 = 1_000_000_000

    static func timeouts() -> ConnectionTimeouts {
        var settings = TransportSettings()
        settings.handshakeTimeout = 10
        settings.idleTimeout = 60
        settings.incompleteStreamTimeout = 30
        return ConnectionTimeouts(settings: settings, acceptedAt: 1000 * second)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var secondsAfterAccept: UInt64
        var handshakeDone: Bool
        var openStreams: Int
        var oldestIncompleteStreamAfterAccept: UInt64?
        var expected: ConnectionTimeouts.Action
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "handshake still within its time", secondsAfterAccept: 9, handshakeDone: false, openStreams: 0, expected: .wait),
        Case(name: "handshake too slow", secondsAfterAccept: 10, handshakeDone: false, openStreams: 0, expected: .close),
        Case(name: "busy connection is not idle", secondsAfterAccept: 61, handshakeDone: true, openStreams: 1,
             oldestIncompleteStreamAfterAccept: nil, expected: .wait),
        Case(name: "idle connection", secondsAfterAccept: 60, handshakeDone: true, openStreams: 0, expected: .goAwayIdle),
        Case(name: "stalled request", secondsAfterAccept: 45, handshakeDone: true, openStreams: 1,
             oldestIncompleteStreamAfterAccept: 15,
             expected: .resetIncompleteStreams(startedBefore: (1000 + 45 - 30) * second + 1)),
        Case(name: "request still within its time", secondsAfterAccept: 44, handshakeDone: true, openStreams: 1,
             oldestIncompleteStreamAfterAccept: 15, expected: .wait),
    ]

    @Test(arguments: cases)
    func theTimerActsOnTheDeadlineThatPassed(_ example: Case) {
        let timeouts = Self.timeouts()
        let now = (1000 + example.secondsAfterAccept) * Self.second
        let action = timeouts.action(
            now: now, handshakeDone: example.handshakeDone, openStreams: example.openStreams,
            oldestIncompleteStream: example.oldestIncompleteStreamAfterAccept.map { (1000 + $0) * Self.second }, closing: false)
        #expect(action == example.expected)
    }

    @Test func afterAnIdleGoAwayAClientThatDoesNotLeaveIsClosed() {
        var timeouts = Self.timeouts()
        timeouts.goAwaySentAt = 1060 * Self.second
        #expect(timeouts.action(now: 1065 * Self.second, handshakeDone: true, openStreams: 0, oldestIncompleteStream: nil, closing: true) == .wait)
        #expect(timeouts.action(now: 1070 * Self.second, handshakeDone: true, openStreams: 0, oldestIncompleteStream: nil, closing: true) == .close)
    }

    @Test func theNextCheckIsTheEarliestDeadline() {
        let timeouts = Self.timeouts()
        let accepted = 1000 * Self.second
        #expect(timeouts.nextCheck(handshakeDone: false, openStreams: 0, oldestIncompleteStream: nil, now: accepted) == 10 * Self.second)
        #expect(timeouts.nextCheck(handshakeDone: true, openStreams: 0, oldestIncompleteStream: nil, now: accepted) == 60 * Self.second)
        #expect(timeouts.nextCheck(handshakeDone: true, openStreams: 1, oldestIncompleteStream: accepted + 5 * Self.second, now: accepted)
                == 35 * Self.second)
    }
}
