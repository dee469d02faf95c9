import DelayboxEngine
import Testing

@Suite(.timeLimit(.minutes(10))) struct PacketByteMapTests {
    /// 418-byte packets of 1152 frames, back to back from byte 34.
    func map(packets: Int, capacity: Int = 512) -> PacketByteMap {
        var map = PacketByteMap(capacity: capacity)
        for index in 0..<packets {
            map.record(
                byte: 34 + Int64(index) * 418, byteCount: 418, timestamp: Int64(index) * 1_152, durationFrames: 1_152)
        }
        return map
    }

    @Test func aByteInsideAPacketMapsInProportion() {
        let map = map(packets: 10)
        #expect(map.timestamp(atByte: 34) == 0)
        #expect(map.timestamp(atByte: 34 + 418 * 3) == Int64(3 * 1_152))
        #expect(map.timestamp(atByte: 34 + 418 * 3 + 209) == Int64(3 * 1_152 + 576))
    }

    @Test func aByteNotReadYetIsUnknownAndOneBeforeEverythingIsTheOldestPacket() {
        let map = map(packets: 10)
        #expect(map.timestamp(atByte: 34 + 418 * 10) == nil)
        #expect(map.timestamp(atByte: 0) == 0, "the bytes before the first frame belong to it")
        #expect(PacketByteMap().timestamp(atByte: 0) == nil)
    }

    @Test func theRingForgetsTheOldestPackets() {
        let map = map(packets: 100, capacity: 16)
        #expect(map.timestamp(atByte: 34 + 418 * 99 + 1) == Int64(99 * 1_152 + 2))
        #expect(
            map.timestamp(atByte: 34 + 418 * 10) == Int64(84 * 1_152), "older than remembered: the oldest packet kept")
    }
}
