import APNSCore
import APNSPipeline
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

    init(
        pipeline: PushPipeline, authentication: AuthenticationService?, scripted: ScriptedAnswers,
        recorder: DeliveryRecorder, clock: any WallClock
    ) {
        self.pipeline = pipeline
        self.authentication = authentication
        self.scripted = scripted
        self.recorder = recorder
        self.clock = clock
    }

    func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
        recorder.metrics.connectionOpened()
        return PushConnection(application: self, authenticator: authentication?.makeAuthenticator())
    }
}

/// One client connection: its provider-token authenticator and the pipeline's per-connection state.
final class PushConnection: HTTP2ConnectionHandler {
    private let application: PushApplication
    private let authenticator: ConnectionTokenAuthenticator?
    private var state: PushConnectionState

    init(application: PushApplication, authenticator: ConnectionTokenAuthenticator?) {
        self.application = application
        self.authenticator = authenticator
        state = PushConnectionState(requiresTokenAuthentication: authenticator != nil)
    }

    var initialMaxConcurrentStreams: UInt32 { state.announcedMaxConcurrentStreams }

    func handle(_ request: HTTPRequest, sink: ResponseSink) {
        let started = DispatchTime.now().uptimeNanoseconds
        let decision = application.pipeline.decide(
            request, connection: &state, authenticator: authenticator, scripts: application.scripted,
            now: application.clock.now())
        let latency = Int64(DispatchTime.now().uptimeNanoseconds - started) / 1000
        let response = decision.response
        let actions = decision.actions
        let apnsID = decision.record.apnsID
        application.recorder.record(request: request, draft: decision.record, latencyMicroseconds: latency) {
            [sendsResponse = decision.sendsResponse] stored in
            // A black hole sends nothing at all; the stream stays open until the client resets it.
            guard sendsResponse else { return }
            sink.send(stored ? response : StoreFailureAnswer.response(apnsID: apnsID), actions: actions)
        }
    }

    func connectionClosed() {
        application.recorder.metrics.connectionClosed()
    }
}
