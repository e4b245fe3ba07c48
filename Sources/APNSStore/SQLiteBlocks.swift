import APNSCore
/// The block tables of a store file (`SQLiteSchema`) as one read sees them: each `deliveries_<firstID>` holds the
/// ids from its first up to the next block's first (the last block: every later id).
struct SQLiteBlocks {
    struct Block {
        let table: String
        let firstID: Int64
        /// The highest id it may hold: the next block's first less one (the last block: `Int64.max`).
        var lastID = Int64.max

        func holds(_ id: Int64) -> Bool { id >= firstID && id <= lastID }
    }

    /// Oldest first.
    let blocks: [Block]

    /// The file's blocks, from `sqlite_master` (in the caller's transaction, if any).
    init(_ connection: SQLiteConnection) throws(DeliveryStoreError) {
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB ?")
        try statement.bind([.text(SQLiteSchema.blockPrefix + "[0-9]*")])
        var blocks: [Block] = []
        while try statement.step() {
            let name = String(decoding: statement.bytes(0), as: UTF8.self)
            if let firstID = Int64(name.dropFirst(SQLiteSchema.blockPrefix.count)) {
                blocks.append(Block(table: name, firstID: firstID))
            }
        }
        blocks.sort { $0.firstID < $1.firstID }
        for index in blocks.indices.dropLast() { blocks[index].lastID = blocks[index + 1].firstID - 1 }
        self.blocks = blocks
    }

    /// How many of the oldest blocks (first ids `firstIDs`, oldest first) count retention drops once the file holds
    /// the ids up to `lastID`: each whose drop leaves at least `maxCount` ids (the rows from the next block's first
    /// through `lastID`), never the last. Dropped as soon as that holds, a file keeps between `maxCount` and
    /// `maxCount` + one block of ids.
    static func retired(_ firstIDs: [Int64], lastID: Int64, maxCount: Int) -> Int {
        var count = 0
        while count + 1 < firstIDs.count, lastID - firstIDs[count + 1] + 1 >= Int64(maxCount) { count += 1 }
        return count
    }

    /// The highest id in the file, 0 for none.
    func maxID(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> Int64 {
        for block in blocks.reversed() {
            if let id = try Self.integer("SELECT max(id) FROM \(block.table)", [], in: connection) { return id }
        }
        return 0
    }

    /// The first column of the first row `sql` selects; nil for none or NULL. Resets the statement (a pending one
    /// would keep `DROP TABLE` from running on its connection).
    static func integer(
        _ sql: String, _ values: [SQLiteValue], in connection: SQLiteConnection
    ) throws(DeliveryStoreError) -> Int64? {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The block that may hold `id`.
    func block(holding id: Int64) -> Block? {
        blocks.last { $0.firstID <= id }
    }

    /// The blocks that may hold ids in `low...high`, oldest first or newest first.
    func blocks(from low: Int64, through high: Int64, newestFirst: Bool) -> [Block] {
        guard low <= high else { return [] }
        let overlapping = blocks.filter { $0.firstID <= high && $0.lastID >= low }
        return newestFirst ? overlapping.reversed() : overlapping
    }
}
