import APNSCore
import APNSCommandLine
import Foundation

/// The progress line of a run of many pushes, on standard error when it is a terminal.
final class PushProgress: @unchecked Sendable {
    private let total: Int
    private let sender: PushSender
    private let enabled: Bool
    private let lock = NSLock()
    private var running = false
    private var thread: Thread?
    private var drawn = false
    private let started = ContinuousClock.now

    init(total: Int, sender: PushSender, enabled: Bool) {
        self.total = total
        self.sender = sender
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func start() {
        guard enabled else { return }
        lock.withLock { running = true }
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                draw()
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        self.thread = thread
        thread.start()
    }

    func draw() {
        let done = sender.completed
        let elapsed = max(0.001, (ContinuousClock.now - started).inSeconds)
        lock.withLock {
            guard running else { return }
            FileHandle.standardError.write(Data(String(format: "\r%d/%d answered, %.0f/s ", done, total, Double(done) / elapsed).utf8))
            drawn = true
        }
    }

    func clearLine() {
        guard enabled else { return }
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)); drawn = false }
        }
    }

    func stop() {
        guard enabled else { return }
        lock.withLock { running = false }
        clearLine()
    }
}
