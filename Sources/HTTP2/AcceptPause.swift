import HTTPContract
import CNative

/// At the descriptor limit (EMFILE/ENFILE) `accept()` fails while the pending connection stays queued, so a
/// listener that keeps reading spins at 100% CPU and, with libevent's default, writes one error line per attempt
/// (an attack round measured 4.68 M lines). Instead the worker stops accepting for `pause` and says so at most
/// once per interval; the kernel keeps the queued connections in the backlog meanwhile.
final class AcceptPause {
    private unowned let worker: EventLoopWorker
    private var timer: OpaquePointer?
    private var paused = false
    let pauseSeconds: Double

    init(worker: EventLoopWorker, pauseSeconds: Double = 0.25) {
        self.worker = worker
        self.pauseSeconds = pauseSeconds
        timer = event_new(worker.base, -1, 0, { _, _, context in
            Unmanaged<AcceptPause>.fromOpaque(context!).takeUnretainedValue().resume()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let timer { event_free(timer) }
    }

    func acceptFailed(errno code: Int32) {
        let message = String(cString: strerror(code))
        guard code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM else {
            RateLimitedLog.standardError.log(key: "accept-\(code)", "accept() failed: \(message)")
            return
        }
        RateLimitedLog.standardError.log(
            key: "accept-limit",
            "accept() failed: \(message); not accepting new connections for \(pauseSeconds) s "
                + "(\(worker.connectionCount) open on this thread; raise `ulimit -n` for more)")
        guard !paused else { return }
        paused = true
        worker.setAccepting(false)
        var delay = timeval(tv_sec: Int(pauseSeconds), tv_usec: Int((pauseSeconds - pauseSeconds.rounded(.down)) * 1_000_000))
        event_add(timer, &delay)
    }

    private func resume() {
        paused = false
        worker.setAccepting(true)
    }
}
