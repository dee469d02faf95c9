import Testing

@testable import DelayboxEngine

@Suite(.timeLimit(.minutes(10))) struct ChunkedRingTests {
    @Test func sequenceNumbersSurviveDropsAndChunksAreRecycled() {
        let ring = ChunkedRing<Int64>(chunkCapacity: 4)
        for value in 0..<10 { ring.append(Int64(value * 10)) }
        #expect(ring.count == 10)
        #expect(ring[7] == 70)
        ring.removeAll(before: 6)
        #expect(ring.firstSequence == 6)
        #expect(ring[6] == 60)
        #expect(ring[9] == 90)
        // 10 elements needed 3 chunks; after dropping 6, one chunk is freed and one kept spare.
        #expect(ring.allocatedBytes == 3 * 4 * 8)
        for value in 10..<14 { ring.append(Int64(value * 10)) }
        #expect(ring[13] == 130)
        #expect(ring.allocatedBytes == 3 * 4 * 8, "the spare chunk is reused, not a new one allocated")
    }

    @Test func contiguousRunsNeverSpanChunks() {
        let ring = ChunkedRing<UInt8>(chunkCapacity: 8)
        let first = [UInt8](1...5).withUnsafeBufferPointer { ring.appendContiguous($0) }
        let second = [UInt8](6...10).withUnsafeBufferPointer { ring.appendContiguous($0) }
        #expect(first == 0)
        #expect(second == 8, "the 3 bytes left in the first chunk are skipped")
        #expect(Array(ring.contiguous(from: second, length: 5)) == [6, 7, 8, 9, 10])
        ring.removeAll(before: second)
        #expect(Array(ring.contiguous(from: second, length: 5)) == [6, 7, 8, 9, 10])
    }
}
