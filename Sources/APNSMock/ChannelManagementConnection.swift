import APNSCore

/// One connection to the channel-management listener (Apple: port 2195 development, 2196 production; A-CHAN):
/// the same provider-token authentication as device pushes, each request answered by `BroadcastService`.
final class ChannelManagementConnection: HTTP2ConnectionHandler {
    private let service: BroadcastService
    private let environment: APNsEnvironment
    private let authenticator: ConnectionTokenAuthenticator?

    init(service: BroadcastService, environment: APNsEnvironment, authenticator: ConnectionTokenAuthenticator?) {
        self.service = service
        self.environment = environment
        self.authenticator = authenticator
    }

    /// The management API has no documented stream limit; the push listener's full value.
    var initialMaxConcurrentStreams: UInt32 { 1000 }

    func handle(_ request: HTTPRequest, sink: ResponseSink) {
        service.handleManagement(request, environment: environment, authenticator: authenticator, sink: sink)
    }

    func connectionClosed() {
        service.recorder.metrics.connectionClosed()
    }
}
