import APNSCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on `<data-dir>/apns-mock.lock`, held for the life of the server. Two servers on one data
/// directory would both write the same database and the second would lose its records (`UNIQUE constraint
/// failed`), so the second refuses to start. The kernel drops the lock when the process exits, even on `kill -9`,
/// so a crash never leaves a stale lock; the file keeps the holder's pid for the error message.
public final class DataDirectoryLock: Sendable {
    public let path: String
    private let descriptor: Int32

    public init(directory: String) throws(DataDirectoryLockError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: directory, detail: error.localizedDescription)
        }
        path = (directory as NSString).appendingPathComponent("apns-mock.lock")
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, detail: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readHolder(descriptor)
            close(descriptor)
            throw .inUse(directory: directory, holderPID: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func readHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

public enum DataDirectoryLockError: Error, CustomStringConvertible, LocalizedError {
    case inUse(directory: String, holderPID: Int32?)
    case cannotOpen(path: String, detail: String)

    public var description: String {
        switch self {
        case .inUse(let directory, let pid):
            let holder = pid.map { " (pid \($0))" } ?? ""
            return "the data directory \(directory) is in use by another apns-mock\(holder): stop that server, or give "
                + "this one its own --data-dir (or --in-memory)"
        case .cannotOpen(let path, let detail):
            return "cannot lock the data directory (\(path)): \(detail)"
        }
    }

    public var errorDescription: String? { description }
}
