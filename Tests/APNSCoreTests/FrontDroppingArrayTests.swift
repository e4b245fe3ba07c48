import APNSCore
import Testing

/// Elements leave in the order they came, across the bulk compactions of the storage.
@Suite struct FrontDroppingArrayTests {
    @Test(arguments: [1, 4, 32, 1024])
    func elementsLeaveInOrderAndDroppedSlotsAreCompacted(minimumCompaction: Int) {
        var array = FrontDroppingArray<Int>(minimumCompaction: minimumCompaction)
        var expected: [Int] = []
        var next = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 3) {
                array.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5 + 1) {
                #expect(array.popFirst() == expected.first)
                if !expected.isEmpty { expected.removeFirst() }
            }
            #expect(Array(array.elements) == expected)
            #expect(array.count == expected.count)
            #expect(array.first == expected.first)
            // Dropped slots kept are fewer than the minimum, or under an eighth of the storage.
            let dropped = array.storageCount - array.count
            #expect(dropped < minimumCompaction || dropped * 8 < array.storageCount)
        }
        while array.popFirst() != nil {}
        #expect(array.isEmpty && array.storageCount == 0)
    }
}

/// Dropping several at once keeps the same elements, in order, and the same bound on dropped slots, as dropping
/// them one by one.
@Suite struct FrontDroppingArrayBulkTests {
    @Test(arguments: [1, 4, 32, 1024])
    func removeFirstDropsTheOldestAndCompacts(minimumCompaction: Int) {
        var bulk = FrontDroppingArray<Int>(minimumCompaction: minimumCompaction)
        var single = FrontDroppingArray<Int>(minimumCompaction: minimumCompaction)
        var next = 0
        for round in 0..<200 {
            for _ in 0..<(round % 11 + 5) {
                bulk.append(next)
                single.append(next)
                next += 1
            }
            let drop = min(round % 13, bulk.count)
            bulk.removeFirst(drop)
            for _ in 0..<drop { single.popFirst() }
            #expect(Array(bulk.elements) == Array(single.elements))
            #expect(bulk.first == single.first)
            let dropped = bulk.storageCount - bulk.count
            #expect(dropped < minimumCompaction || dropped * 8 < bulk.storageCount)
        }
        bulk.removeFirst(bulk.count)
        #expect(bulk.isEmpty && bulk.storageCount == 0)
        bulk.removeFirst(0)
        #expect(bulk.isEmpty)
    }
}
