// Appends delivery records to a SQLite store as fast as it can from several threads and prints each id on its
// own line once the store reports it durable. The kill -9 test runs this, kills it mid-load, reopens the store and
// checks that every printed id is there.
//
// Usage: store-crash-writer <sqlite-path> [threads]
import APNSCore
import APNSStore
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: store-crash-writer <sqlite-path> [threads]\n".utf8))
    exit(2)
}
let threadCount = arguments.count >= 3 ? Int(arguments[2]) ?? 4 : 4
let store = try SQLiteDeliveryStore(path: arguments[1], retention: RetentionPolicy(maxCount: 10_000_000, maxAge: nil))
let output = NSLock()

@Sendable func record(_ index: Int) -> DeliveryRecord {
    DeliveryRecord(
        receivedAt: SystemClock().now(), connectionID: UInt64(index % 8), clientAddress: "127.0.0.1:5000",
        method: "POST", path: "/3/device/abcd\(index)", deviceToken: "abcd\(index)",
        headers: [HeaderField("apns-topic", "com.example.app")],
        payload: Array(#"{"aps":{"alert":"crash test \#(index)"}}"#.utf8), status: 200, reason: nil,
        apnsID: UUID().uuidString, pushType: "alert", topic: "com.example.app", latencyMicroseconds: 10)
}

for worker in 0..<threadCount {
    Thread {
        var index = worker
        while true {
            store.append(record(index)) { result in
                guard case .success(let id) = result else { return }
                output.lock()
                print(id)
                output.unlock()
            }
            index += threadCount
        }
    }.start()
}
while true { sleep(60) }
