import APNSCore
import APNSStore
import Foundation

/// The APNs mock as an HTTP/2 application: for each request, the rules' verdict (authentication included), then
/// the one place where a scripted answer may replace it, then the simulated device for accepted Live Activity
/// pushes, then the delivery record. The response leaves only once its record is durable.
final class PushApplication: HTTP2Application {
    let validator: PushValidator
    let authentication: AuthenticationService?
    let scripted: ScriptedAnswers
    let liveActivities: LiveActivityService?
    let recorder: DeliveryRecorder
    let clock: any WallClock

    init(
        validator: PushValidator, authentication: AuthenticationService?, scripted: ScriptedAnswers,
        liveActivities: LiveActivityService?, recorder: DeliveryRecorder, clock: any WallClock
    ) {
        self.validator = validator
        self.authentication = authentication
        self.scripted = scripted
        self.liveActivities = liveActivities
        self.recorder = recorder
        self.clock = clock
    }

    func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
        recorder.metrics.connectionOpened()
        return PushConnection(application: self, connection: connection, authenticator: authentication?.makeAuthenticator())
    }
}

/// One client connection's APNs state: its provider-token binding and the stream limit it was last told.
final class PushConnection: HTTP2ConnectionHandler {
    private let application: PushApplication
    private let connection: ConnectionInfo
    private let authenticator: ConnectionTokenAuthenticator?
    private var announcedMaxConcurrentStreams: UInt32
    /// Requests seen on this connection (fault specs' `goaway.afterStreams`).
    private var requestsOnConnection = 0
    /// A fault announced its own stream limit; the authentication rule no longer changes it.
    private var streamLimitFromFault = false

    /// APNs allows one stream until the first valid provider token, then many (A-SEND, A-CONN: "APNs allows only
    /// one stream until you post a request with a valid authentication token"; 1000 observed, A-CONN).
    static let streamsBeforeAuthentication: UInt32 = 1
    static let streamsAfterAuthentication: UInt32 = 1000

    init(application: PushApplication, connection: ConnectionInfo, authenticator: ConnectionTokenAuthenticator?) {
        self.application = application
        self.connection = connection
        self.authenticator = authenticator
        announcedMaxConcurrentStreams = authenticator == nil ? Self.streamsAfterAuthentication : Self.streamsBeforeAuthentication
    }

    var initialMaxConcurrentStreams: UInt32 { announcedMaxConcurrentStreams }

    func handle(_ request: HTTPRequest, sink: ResponseSink) {
        let started = DispatchTime.now().uptimeNanoseconds
        let now = application.clock.now()
        var verdict = application.validator.evaluate(request, authenticator: authenticator, now: now)
        var actions: [ConnectionAction] = []

        requestsOnConnection += 1
        let fault = application.scripted.engine
            .evaluate(FaultRequest(verdict: verdict, request: request, requestsOnConnection: requestsOnConnection, now: now))
            .map { $0.outcome(for: verdict, streamID: request.streamID, now: now) }
        if let fault {
            verdict = fault.verdict
            actions += fault.actions
            if let limit = fault.announcedMaxConcurrentStreams { announcedMaxConcurrentStreams = limit; streamLimitFromFault = true }
        }

        let apnsID = ApnsID.resolve(requestValue: request.value("apns-id"))
        var liveActivity: LiveActivityOutcome?
        if fault?.replacesAnswer != true, verdict.isAccepted, verdict.pushType == .liveactivity,
           let service = application.liveActivities {
            let result = service.receive(request: request, verdict: verdict, now: now, apnsID: apnsID)
            liveActivity = result.outcome
            verdict.warnings += result.warnings
            if let strict = result.strictAnswer {
                verdict = verdict.strictDeviceRejection(wireReason: strict, explanation: result.outcome.explanation)
            }
        }

        if !streamLimitFromFault, let authenticator, authenticator.hasAuthenticated,
           announcedMaxConcurrentStreams != Self.streamsAfterAuthentication {
            announcedMaxConcurrentStreams = Self.streamsAfterAuthentication
            actions.append(.setMaxConcurrentStreams(Self.streamsAfterAuthentication))
        }

        let environment = verdict.environment
        let uniqueID = environment == .development ? ApnsID.newUniqueID() : nil
        let response = verdict.response(apnsID: apnsID, uniqueID: uniqueID)
        let latency = Int64(DispatchTime.now().uptimeNanoseconds - started) / 1000

        let connectionActions = actions
        application.recorder.record(
            request: request, verdict: verdict, response: response, apnsID: apnsID, uniqueID: uniqueID,
            liveActivity: liveActivity, latencyMicroseconds: latency, injected: fault?.mark
        ) { [sendsAnything = fault?.sendsAnything ?? true] stored in
            guard sendsAnything else { return }
            sink.send(stored ? response : StoreFailureAnswer.response(apnsID: apnsID), actions: connectionActions)
        }
    }

    func connectionClosed() {
        application.recorder.metrics.connectionClosed()
    }
}
