import Foundation

/// A thread whose end its owner waits for. `join()` returns once `body` has returned AND everything `body` captured
/// has been released, so no object the thread used can be freed later on it.
///
/// Why not `Thread` plus a semaphore the body signals: the body's closure (and so every object it captured) is
/// released only after the signal, on the thread, while the waiter has already gone on. An object whose last
/// reference went that way was freed (`event_base_free`, `SSL_CTX_free`, nghttp2 session deletes) while `main`
/// was already in `exit()`, after OpenSSL's own clean-up.
public final class JoinableThread: @unchecked Sendable {
    /// What the new thread runs; the thread drops `body` before it signals `finished`.
    private final class Start: @unchecked Sendable {
        var body: (@Sendable () -> Void)?
        let name: String
        let finished = DispatchSemaphore(value: 0)

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            // Linux keeps at most 15 bytes of a thread's name (`/proc/<pid>/task/<tid>/comm`).
            Thread.current.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            body?()
            body = nil
            finished.signal()
        }
    }

    private let handle: pthread_t
    private let finished: DispatchSemaphore
    /// Joined or detached: `pthread_join` may be called once.
    private let settled = Locked(false)

    /// Starts `body` on a new thread named `name` (the first 15 bytes show in `top -H` and `/proc`).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        let start = Start(name: name, body: body)
        finished = start.finished
        var handle = pthread_t()
        let context = Unmanaged.passRetained(start).toOpaque()
        let result = pthread_create(&handle, nil, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            start.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            throw ThreadStartError(name: name, code: result)
        }
        self.handle = handle
    }

    /// Waits until the thread has ended. Later calls return at once.
    public func join() {
        guard settle() else { return }
        pthread_join(handle, nil)
    }

    /// Waits at most `seconds` for the thread to end: true when it did (and was joined). When it did not, the thread
    /// is detached and left to finish by itself: the caller must have made sure it touches nothing freed meanwhile.
    public func join(within seconds: Double) -> Bool {
        guard finished.wait(timeout: .now() + seconds) == .success else {
            if settle() { pthread_detach(handle) }
            return false
        }
        finished.signal()  // for a later `join(within:)`
        join()
        return true
    }

    private func settle() -> Bool {
        settled.withLock { settled in
            defer { settled = true }
            return !settled
        }
    }

    deinit {
        // A thread nobody joined keeps running on its own; its resources go when it ends.
        if settle() { pthread_detach(handle) }
    }
}

/// `pthread_create` refused (too many threads, no memory).
public struct ThreadStartError: Error, CustomStringConvertible {
    public let name: String
    public let code: Int32

    public var description: String { "cannot start thread \(name): \(String(cString: strerror(code)))" }
}
