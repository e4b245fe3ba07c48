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

    /// One request on a push connection: a broadcast send goes to the broadcast service; anything else runs the
    /// pipeline at the clock's time, is recorded, and is answered (with its connection actions) once the record is
    /// durable. The request is handed on to the record (moved, not copied).
    func handle(
        _ request: consuming HTTPRequest, connection: inout PushConnectionState,
        authenticator: ConnectionTokenAuthenticator?, redactions: AuthorizationRedactionMemo, sink: ResponseSink
    ) {
        if broadcast?.handleSend(request, authenticator: authenticator, sink: sink) == true { return }
        let started = DispatchTime.now().uptimeNanoseconds
        let decision = pipeline.decide(
            request, connection: &connection, authenticator: authenticator, scripts: scripted, now: clock.now())
        let latency = Int64(DispatchTime.now().uptimeNanoseconds - started) / 1000
        let apnsID = decision.record.apnsID
        broadcast?.noteDevicePush(request, deviceOutcome: decision.record.liveActivity, apnsID: apnsID)
        // A black hole sends nothing at all; the stream stays open until the client resets it. A failed store
        // answers `StoreFailureAnswer` with the record's apns-id instead (the actions still apply).
        let response = decision.sendsResponse ? decision.response : nil
        let actions = decision.actions
        recorder.record(request: request, draft: decision.record, latencyMicroseconds: latency, redactions: redactions) {
            [sink] stored in
            guard let response else { return }
            sink.send(stored ? response : StoreFailureAnswer.response(apnsID: apnsID), actions: actions)
        }
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

    func connectionClosed() {
        recorder.metrics.connectionClosed()
    }
}

/// One client connection: what the application keeps per connection (provider-token authenticator, the pipeline's
/// state, the last redacted `authorization`); each request goes to `PushApplication.handle` with them.
final class PushConnection: HTTP2ConnectionHandler {
    private let application: PushApplication
    private let authenticator: ConnectionTokenAuthenticator?
    /// The pipeline's state of this connection. Only the connection's event-loop thread uses it.
    private var state: PushConnectionState
    private let redactions = AuthorizationRedactionMemo()

    /// A connection that presented a client certificate authenticates with it, so the stream limit starts high.
    init(application: PushApplication, authenticator: ConnectionTokenAuthenticator?, presentedCertificate: Bool = false) {
        self.application = application
        self.authenticator = authenticator
        state = PushConnectionState(requiresTokenAuthentication: authenticator != nil && !presentedCertificate)
    }

    var initialMaxConcurrentStreams: UInt32 { state.announcedMaxConcurrentStreams }

    func handle(_ request: consuming HTTPRequest, sink: ResponseSink) {
        application.handle(request, connection: &state, authenticator: authenticator, redactions: redactions, sink: sink)
    }

    func connectionClosed() {
        application.connectionClosed()
    }
}
