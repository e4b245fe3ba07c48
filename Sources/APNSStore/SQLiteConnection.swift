import APNSCore
private import CNative

/// One SQLite connection. The only file of the store that touches C: every sqlite3 call, pointer and error code is
/// here, mapped to `DeliveryStoreError` in `check`. Not thread-safe: one owner (the writer thread, or a reader
/// guarded by a mutex).
final class SQLiteConnection {
    private var handle: OpaquePointer?

    enum Mode { case readWrite, readOnly }

    init(path: String, mode: Mode) throws(DeliveryStoreError) {
        let flags: Int32 = switch mode {
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        }
        cnative_sqlite_memstatus_off_once()
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        if rc != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(db)
            handle = nil
            throw .sqlite(code: rc, message: message)
        }
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit { close() }

    /// Whether closing this connection (the file's last) copies the WAL into the file (SQLite's default). Off while a
    /// file is checked: one that fails must stay as it was found.
    func checkpointOnClose(_ enabled: Bool) {
        if let handle { _ = cnative_sqlite_checkpoint_on_close(handle, enabled ? 1 : 0) }
    }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    func execute(_ sql: String) throws(DeliveryStoreError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    func prepare(_ sql: String) throws(DeliveryStoreError) -> Statement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        return Statement(connection: self, statement: statement)
    }

    /// Pages in the WAL after this connection's last commit, once `trackWALFrames` was called (0 before).
    private(set) var walFrames = 0

    /// Keeps `walFrames` current from SQLite's WAL hook. Replaces automatic checkpoints (which use the same hook):
    /// the owner checkpoints itself.
    func trackWALFrames() {
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().walFrames = Int(frames)
                return SQLITE_OK
            },
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    fileprivate func check(_ rc: Int32) throws(DeliveryStoreError) {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection"
            throw .sqlite(code: rc, message: message)
        }
    }

    /// A prepared statement. Parameters are 1-based, columns 0-based, as in SQLite.
    final class Statement {
        private let connection: SQLiteConnection
        private var statement: OpaquePointer?

        fileprivate init(connection: SQLiteConnection, statement: OpaquePointer?) {
            self.connection = connection
            self.statement = statement
        }

        deinit { sqlite3_finalize(statement) }

        /// Binds values in order from parameter 1, after clearing earlier bindings.
        func bind(_ values: [SQLiteValue]) throws(DeliveryStoreError) {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let rc: Int32
                switch value {
                case .null: rc = sqlite3_bind_null(statement, index)
                case .integer(let number): rc = sqlite3_bind_int64(statement, index, number)
                case .text(var text):
                    // The UTF-8 bytes with their length: no NUL-terminated copy of each text (SQLite copies anyway).
                    rc = text.withUTF8 { utf8 in
                        guard let base = utf8.baseAddress else {
                            return sqlite3_bind_text(statement, index, "", 0, cnative_sqlite_transient())
                        }
                        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                            sqlite3_bind_text(statement, index, $0, Int32(utf8.count), cnative_sqlite_transient())
                        }
                    }
                case .blob(let bytes):
                    rc = bytes.withUnsafeBytes { buffer in
                        sqlite3_bind_blob(
                            statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                            cnative_sqlite_transient())
                    }
                }
                try connection.check(rc)
            }
        }

        /// Binds `row`'s values from parameter 1 and runs the statement, which returns no rows. SQLite reads the
        /// texts and blobs in place (`SQLITE_STATIC`, no copy of each), so the bindings are cleared before the
        /// buffer may go.
        func run(_ row: SQLiteRow) throws(DeliveryStoreError) {
            try run(rows: CollectionOfOne(row))
        }

        /// The same for a statement with the parameters of several rows (`SQLiteSchema.insert(rowCount:)`): each row's
        /// values follow the previous row's.
        func run<Rows: RandomAccessCollection<SQLiteRow>>(rows: Rows) throws(DeliveryStoreError) where Rows.Index == Int {
            sqlite3_reset(statement)
            let rc = bindAndStep(rows, from: rows.startIndex, parameter: 1)
            sqlite3_reset(statement)
            if rc != SQLITE_DONE { try connection.check(rc) }
        }

        /// Binds the rows from `position` on, each inside its buffer's access, then steps in the innermost one (so
        /// every buffer SQLite reads is valid) and clears the bindings there.
        private func bindAndStep<Rows: RandomAccessCollection<SQLiteRow>>(
            _ rows: Rows, from position: Int, parameter: Int32
        ) -> Int32 where Rows.Index == Int {
            guard position < rows.endIndex else {
                defer { sqlite3_clear_bindings(statement) }
                return sqlite3_step(statement)
            }
            return rows[position].withUnsafeBytes { raw in
                var index = parameter
                var offset = 0
                while offset < raw.count {
                    let tag = SQLiteRow.Tag(rawValue: raw[offset])
                    offset += 1
                    let rc: Int32
                    switch tag {
                    case .null?:
                        rc = sqlite3_bind_null(statement, index)
                    case .integer?:
                        let number = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
                        rc = sqlite3_bind_int64(statement, index, number)
                        offset += 8
                    case .text?, .blob?:
                        let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                        offset += 4
                        let content = raw.baseAddress! + offset
                        if tag == .text {
                            rc = content.withMemoryRebound(to: CChar.self, capacity: max(count, 1)) {
                                sqlite3_bind_text(statement, index, $0, Int32(count), nil)
                            }
                        } else {
                            rc = sqlite3_bind_blob(statement, index, content, Int32(count), nil)
                        }
                        offset += count
                    case nil:
                        rc = SQLITE_MISUSE
                    }
                    if rc != SQLITE_OK {
                        sqlite3_clear_bindings(statement)
                        return rc
                    }
                    index += 1
                }
                return bindAndStep(rows, from: position + 1, parameter: index)
            }
        }

        /// Advances; true when a row is available.
        func step() throws(DeliveryStoreError) -> Bool {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_ROW { return true }
            sqlite3_reset(statement)
            try connection.check(rc)
            return false
        }

        /// Runs a statement that returns no rows.
        func run(_ values: [SQLiteValue] = []) throws(DeliveryStoreError) {
            try bind(values)
            while try step() {}
        }

        /// Ends a statement that was not stepped to its last row (releases its read snapshot).
        func reset() { sqlite3_reset(statement) }

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

        /// The column's value as stored (a copy), to bind elsewhere (a row copied into another file).
        func value(_ column: Int32) -> SQLiteValue {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_NULL: .null
            case SQLITE_INTEGER: .integer(int64(column))
            case SQLITE_TEXT: .text(String(decoding: bytes(column), as: UTF8.self))
            default: .blob(bytes(column))
            }
        }

        func bytes(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
            return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
        }
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue: Sendable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}
