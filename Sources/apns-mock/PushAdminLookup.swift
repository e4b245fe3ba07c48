import HTTP2
import APNSCommandLine
import APNSCore
import APNSStore
import Foundation

/// Reads the mock's delivery record for an answer (`GET /api/deliveries/{apns-id}`); silent when the admin API
/// is only the default guess and does not answer.
final class PushAdminLookup: Sendable {
    let client: AdminClient
    let quiet: Bool
    private let unreachable = Locked(false)

    init?(url: String, quiet: Bool) {
        guard let endpoint = HTTP2Endpoint(url: url), !endpoint.useTLS else {
            if !quiet { printError("apns-mock push: --admin-url \(url) is not http://HOST:PORT; not reading delivery records") }
            return nil
        }
        client = AdminClient(host: endpoint.host, port: endpoint.port, bearerToken: ProcessInfo.processInfo.environment["APNS_MOCK_ADMIN_TOKEN"])
        self.quiet = quiet
    }

    func record(apnsID: String) -> DeliveryRecord? {
        guard !unreachable.withLock({ $0 }) else { return nil }
        do {
            return try client.delivery(apnsID: apnsID)
        } catch {
            unreachable.withLock { $0 = true }
            if !quiet { printError("apns-mock push: cannot read the delivery record: \(error)") }
            return nil
        }
    }
}
