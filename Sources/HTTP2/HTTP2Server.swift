import HTTPContract
import CNative
import Foundation
import Synchronization

/// One listening socket: address, whether it speaks TLS or cleartext HTTP/2 (prior knowledge), and a label the
/// application gives it (every connection's `ConnectionInfo.listenerLabel`; apns-mock uses the environment name).
public struct ListenerConfiguration: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var useTLS: Bool
    public var label: String

    public init(host: String, port: Int, useTLS: Bool, label: String) {
        self.host = host
        self.port = port
        self.useTLS = useTLS
        self.label = label
    }
}

public struct TLSFiles: Sendable, Equatable {
    public var certificateChainPath: String
    public var privateKeyPath: String
    /// PEM certificates that client certificates must chain to (`PeerCertificate.verification`); nil: none trusted.
    public var clientCertificateAuthorityPath: String?

    public init(certificateChainPath: String, privateKeyPath: String, clientCertificateAuthorityPath: String? = nil) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
        self.clientCertificateAuthorityPath = clientCertificateAuthorityPath
    }
}

/// Failures of the transport, mapped from C error families in one place.
public enum TransportError: Error, CustomStringConvertible {
    case tls(String)
    case listen(String)
    case eventLoop(String)

    public var description: String {
        switch self {
        case .tls(let message): "TLS: \(message)"
        case .listen(let message): "listen: \(message)"
        case .eventLoop(let message): "event loop: \(message)"
        }
    }
}

/// The HTTP/2 server: one libevent loop per thread (default: one per core), each with its own `SO_REUSEPORT`
/// listener on every configured port. The thread that accepts a socket hands it to the thread with the fewest
/// connections (`ConnectionHandoff`); a connection then stays on that thread, and its handler is called only there.
public final class HTTP2Server: Sendable {
    let workers: [EventLoopWorker]
    private let listeners: [ListenerConfiguration]
    private let boundPorts: Locked<[Int]> = Locked([])

    public init(
        listeners: [ListenerConfiguration], tls: TLSFiles?, settings: TransportSettings = TransportSettings(),
        application: any HTTP2Application, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        clock: any WallClock = SystemClock(), faults: ConnectionFaults = ConnectionFaults()
    ) throws {
        LibraryInitialization.once()
        let tlsContext: TLSContext? = try listeners.contains(where: \.useTLS)
            ? TLSContext(files: tls ?? { throw TransportError.tls("a TLS listener needs a certificate and key") }())
            : nil
        self.listeners = listeners
        let bodyBudget = BodyBufferBudget(limit: settings.totalBodyBufferLimit)
        let peers = EventLoopPeers()
        self.workers = try (0..<max(1, threads)).map { index in
            try EventLoopWorker(
                index: index, tls: tlsContext, settings: settings, application: application, clock: clock,
                faults: faults, bodyBudget: bodyBudget, peers: peers)
        }
        peers.set(workers)
    }

    /// Binds every listener on every worker and starts the threads. Returns the bound port of each listener, in
    /// order (a configured port 0 becomes the port the kernel chose).
    @discardableResult
    public func start() throws -> [Int] {
        var ports: [Int] = []
        for listener in listeners {
            var port = listener.port
            try ExclusivePortCheck.ensureFree(host: listener.host, port: port)
            for worker in workers {
                port = try worker.listen(listener, port: port)
            }
            ports.append(port)
        }
        boundPorts.withLock { $0 = ports }
        for worker in workers {
            do {
                try worker.startThread()
            } catch {
                // The threads already running stop again; the server is then as if never started.
                shutdown(gracePeriod: 0)
                throw TransportError.eventLoop("\(error)")
            }
        }
        return ports
    }

    public var ports: [Int] { boundPorts.withLock { $0 } }

    /// Graceful shutdown: stop accepting, GOAWAY(NO_ERROR) on every connection, let in-flight streams finish, and
    /// close. Connections still open after `gracePeriod` seconds are closed. Returns once every loop thread has
    /// ended (joined): every connection's handler has been told, every nghttp2 session and SSL object freed and
    /// every listening port closed, on those threads; none of them still holds a reference to this server's objects.
    public func shutdown(gracePeriod: Double = 10) {
        for worker in workers { worker.requestShutdown(gracePeriod: gracePeriod) }
        for worker in workers { worker.waitUntilStopped() }
    }

    /// Number of open client connections across all threads.
    public var connectionCount: Int { workers.reduce(0) { $0 + $1.connectionCount } }
}

/// Process-wide C library set-up, done once: libevent's pthread locking (so another thread may wake a loop) and
/// ignoring SIGPIPE (writes to a closed socket must fail, not kill the process).
enum LibraryInitialization {
    private static let done: Void = {
        cnative_libevent_use_pthreads_once()
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (RLIMIT_FSIZE) must make the store's writes fail, which it reports, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        DescriptorLimit.raiseToHardLimit()
    }()

    static func once() { _ = done }
}

/// A process-wide connection counter, so ids are unique across threads.
let connectionIDs = Atomic<UInt64>(0)
