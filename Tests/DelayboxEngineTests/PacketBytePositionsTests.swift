import DelayboxEngine
import Testing

@Suite(.timeLimit(.minutes(10)))
struct PacketBytePositionsTests {
    @Test func framesWithOffsetsOfTheirOwnArePlacedThere() {
        var positions = PacketBytePositions()
        #expect(positions.place(offset: 0, size: 384) == 0)
        #expect(positions.place(offset: 384, size: 384) == 384)
        #expect(positions.end == 768)
        // Ten junk bytes: the frame after them is placed ten bytes late, the next exactly.
        #expect(positions.place(offset: 778, size: 384) == 788)
        #expect(positions.place(offset: 1_162, size: 384) == 1_162)
        #expect(positions.end == 1_546)
    }

    /// Ogg pages: a 27-byte header plus one lacing byte per packet (of under 255 bytes).
    @Test func packetsOfAPageFollowOneAnotherAfterItsHeader() {
        var positions = PacketBytePositions()
        let header: Int64 = 27 + 50
        let page: Int64 = header + 50 * 240
        var placed: [[Int64]] = []
        for index: Int64 in 0..<3 {
            placed.append((0..<50).map { _ in positions.place(offset: index * page, size: 240) })
        }
        // The first page's header is not yet known; from the second on, exact.
        #expect(placed[0] == (0..<50).map { $0 * 240 })
        #expect(placed[1] == (0..<50).map { page + header + $0 * 240 })
        #expect(placed[2] == (0..<50).map { 2 * page + header + $0 * 240 })
        #expect(positions.end == 3 * page)
    }
}
