import APNSCore
import APNSStore
import Foundation

/// The APNs mock as an HTTP/2 application: a thin adapter that runs the `PushPipeline` for each request, records
/// the delivery and sends the response with its connection actions once the record is durable (a record that
/// could not be stored is answered `StoreFailureAnswer` instead).
final class PushApplication: HTTP2Application {
    let pipeline: PushPipeline
    let authentication: AuthenticationService?
    let scripted: ScriptedAnswers
    let recorder: DeliveryRecorder
    let clock: any WallClock
    /// Broadcast sends, channel management and channel subscriptions (nil: not wired, as in some tests).
    let broadcast: BroadcastService?

    init(
        pipeline: PushPipeline, authentication: AuthenticationService?, scripted: ScriptedAnswers,
        recorder: DeliveryRecorder, clock: any WallClock, broadcast: BroadcastService? = nil
    ) {
        self.broadcast = broadcast
        self.pipeline = pipeline
        self.authentication = authentication
        self.scripted = scripted
        self.recorder = recorder
        self.clock = clock
    }

    /// Runs the pipeline for one push, at the clock's time. Called on the application, so that the pipeline is used
    /// where it is stored (a call on `application.pipeline` from the connection copied it out, a retain and a
    /// release of each of its references, per push).
    func decide(
        _ request: HTTPRequest, connection: inout PushConnectionState, authenticator: ConnectionTokenAuthenticator?
    ) -> PushDecision {
        pipeline.decide(request, connection: &connection, authenticator: authenticator, scripts: scripted, now: clock.now())
    }

    func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
        recorder.metrics.connectionOpened()
        if let broadcast, let environment = BroadcastService.managementEnvironment(connection) {
            return ChannelManagementConnection(
                service: broadcast, environment: environment, authenticator: authentication?.makeAuthenticator())
        }
        return PushConnection(
            application: self, authenticator: authentication?.makeAuthenticator(),
            presentedCertificate: connection.tls?.clientCertificate != nil)
    }
}

/// One client connection: its provider-token authenticator and the pipeline's per-connection state.
final class PushConnection: HTTP2ConnectionHandler {
    private let application: PushApplication
    private let authenticator: ConnectionTokenAuthenticator?
    /// The pipeline's state of this connection, allocated once with it: lent to the pipeline from a fixed address,
    /// as a class's stored `var` it was checked for exclusivity at run time on every push (`swift_beginAccess`,
    /// ~70 instructions). Only the connection's event-loop thread uses it.
    private let state: UnsafeMutablePointer<PushConnectionState>
    private let redactions = RedactedAuthorizationMemo()

    /// A connection that presented a client certificate authenticates with it, so the stream limit starts high.
    init(application: PushApplication, authenticator: ConnectionTokenAuthenticator?, presentedCertificate: Bool = false) {
        self.application = application
        self.authenticator = authenticator
        state = .allocate(capacity: 1)
        state.initialize(
            to: PushConnectionState(requiresTokenAuthentication: authenticator != nil && !presentedCertificate))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var initialMaxConcurrentStreams: UInt32 { state.pointee.announcedMaxConcurrentStreams }

    /// The request is handed over by the transport and handed on to the record (moved, not copied).
    func handle(_ request: consuming HTTPRequest, sink: ResponseSink) {
        if application.broadcast?.handleSend(request, authenticator: authenticator, sink: sink) == true { return }
        let started = DispatchTime.now().uptimeNanoseconds
        let decision = application.decide(request, connection: &state.pointee, authenticator: authenticator)
        let latency = Int64(DispatchTime.now().uptimeNanoseconds - started) / 1000
        let apnsID = decision.record.apnsID
        application.broadcast?.noteDevicePush(request, deviceOutcome: decision.record.liveActivity, apnsID: apnsID)
        // The answer waits on the sink, so the completion captures the sink alone (no closure context per push).
        // A black hole sends nothing at all (nothing is held); the stream stays open until the client resets it.
        // A failed store answers `StoreFailureAnswer` with the record's apns-id, which the held answer carries
        // (`Verdict.response` is given the draft's apns-id).
        assert(!decision.sendsResponse || decision.response.headers.first { $0.name == "apns-id" }?.value == apnsID)
        if decision.sendsResponse { sink.hold(decision.response, actions: decision.actions) }
        application.recorder.record(
            request: request, draft: decision.record, latencyMicroseconds: latency, redactions: redactions
        ) { [sink] stored in
            sink.sendHeld(
                replacingResponseWith: stored ? nil : StoreFailureAnswer.response(apnsID: sink.heldHeader("apns-id") ?? ""))
        }
    }

    func connectionClosed() {
        application.recorder.metrics.connectionClosed()
    }
}
