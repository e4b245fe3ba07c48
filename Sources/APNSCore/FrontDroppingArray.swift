/// A first-in, first-out array: elements are appended at the back and dropped from the front without moving the
/// rest each time. Dropped slots are compacted away in bulk once they are at least `minimumCompaction` and an
/// eighth of the storage, so the storage stays within about 8/7 of the elements kept and each drop moves at most
/// seven elements on average. Used where the oldest go first: the SQLite store's lookup index (rows, and each
/// token's rows), the in-memory store's records and the simulated device's order of timeline entries across tokens.
public struct FrontDroppingArray<Element> {
    private var storage: [Element]
    private var head = 0
    private let minimumCompaction: Int

    public init(_ elements: [Element] = [], minimumCompaction: Int = 1024) {
        storage = elements
        self.minimumCompaction = minimumCompaction
    }

    /// The elements kept, oldest first.
    public var elements: ArraySlice<Element> { storage[head...] }
    public var isEmpty: Bool { head == storage.count }
    public var count: Int { storage.count - head }
    /// Elements kept plus dropped slots not yet compacted away.
    public var storageCount: Int { storage.count }
    public var first: Element? { isEmpty ? nil : storage[head] }

    public mutating func append(_ element: Element) { storage.append(element) }

    /// Drops and returns the oldest element.
    @discardableResult
    public mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        removeFirst(1)
        return element
    }

    /// Drops the `count` oldest elements (at most `self.count`).
    public mutating func removeFirst(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "removeFirst(\(count)) of \(self.count) elements")
        head += count
        if head == storage.count {
            storage.removeAll(keepingCapacity: false)
            head = 0
        } else if head >= minimumCompaction && head * 8 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}

extension FrontDroppingArray: Sendable where Element: Sendable {}
