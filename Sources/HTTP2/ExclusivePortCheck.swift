import CNative
import Foundation

/// The push listeners bind with `SO_REUSEPORT` so that each event-loop thread has its own listener on the same
/// port. The kernel would let ANOTHER process join that group too, and a stale server would silently take part of
/// the traffic. Before the first listener of a port is bound, a probe socket binds it WITHOUT `SO_REUSEPORT` (with
/// `SO_REUSEADDR`, so a port whose old connections linger in TIME_WAIT is still free): if that bind fails, the port
/// belongs to someone else, and the server refuses to start.
enum ExclusivePortCheck {
    static func ensureFree(host: String, port: Int) throws {
        guard port != 0, let address = EventLoopWorker.socketAddress(host: host, port: port) else { return }
        var storage = address.0
        let length = address.1
        let fd = socket(Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard result != 0 else { return }
        let code = errno
        let printed = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        if code == EADDRINUSE {
            throw TransportError.listen(
                "port \(port) is already in use (\(printed)), probably by another apns-mock: stop it "
                    + "(`ss -ltnp 'sport = :\(port)'` shows which process) or choose another port with --port/--h2c-port")
        }
        throw TransportError.listen("cannot listen on \(printed): \(String(cString: strerror(code)))")
    }
}
