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
