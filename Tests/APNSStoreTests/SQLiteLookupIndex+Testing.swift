@testable import APNSCore
@testable import APNSStore

extension SQLiteLookupIndex {
    /// Rows just committed, in id order, received at time 0 (tests of the lookups, which do not read receive times).
    func add(_ rows: [(id: Int64, apnsKey: Int64, tokenKey: Int64?)]) {
        add(rows.map { Entry(id: $0.id, apnsKey: $0.apnsKey, tokenKey: $0.tokenKey, receivedAt: 0) })
    }
}
