import APNSAdmin
import APNSStore
import Testing

/// A server told to stop right after it started (a SIGTERM just after the listening line) stops: the stop reaches
/// its loop even when the loop thread has not entered `event_base_loop` yet.
@Suite(.timeLimit(.minutes(1))) struct AdminServerStopTests {
    @Test func stoppingRightAfterStartingReturns() throws {
        for _ in 0..<200 {
            let server = try AdminServer(
                host: "127.0.0.1", port: 0, bearerToken: nil, store: InMemoryDeliveryStore(), backend: FakeBackend())
            try server.start()
            server.stop()
        }
    }
}
