import DelayboxAudio
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct FrameRingTests {
    @Test func wrapsAroundAndNeverTakesMoreThanItHas() {
        let ring = FrameRing(capacityFrames: 5)
        let frames: [Float] = (0..<8).map(Float.init)  // 4 frames
        #expect(frames.withUnsafeBufferPointer { ring.write($0) } == 4)
        #expect(frames.withUnsafeBufferPointer { ring.write($0) } == 1)  // only one fits
        var out = [Float](repeating: -1, count: 8)
        #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 3) })
        #expect(Array(out[0..<6]) == [0, 1, 2, 3, 4, 5])
        #expect(frames.withUnsafeBufferPointer { ring.write($0) } == 3)  // wraps
        #expect(!out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 6) })
        #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 4) })
        #expect(out == [6, 7, 0, 1, 0, 1, 2, 3])
        #expect(ring.fillFrames == 1 && ring.discard(frames: 9) == 1 && ring.fillFrames == 0)
    }

    /// One producer and one consumer thread, as in the appliance: every frame arrives
    /// once, in order.
    @Test func producerAndConsumerThreadsLoseNothing() async {
        let ring = FrameRing(capacityFrames: 1_000)
        let total = 400_000
        let producer = Thread {
            var next = 0
            var chunk = [Float](repeating: 0, count: 2 * 333)
            while next < total {
                let count = min(333, total - next)
                for index in 0..<count {
                    chunk[2 * index] = Float(next + index); chunk[2 * index + 1] = -Float(next + index)
                }
                let taken = chunk.withUnsafeBufferPointer {
                    ring.write(UnsafeBufferPointer(rebasing: $0[0..<2 * count]))
                }
                next += taken
            }
        }
        producer.start()
        var expected = 0
        var wrong = 0
        var period = [Float](repeating: 0, count: 2 * 100)
        while expected < total {
            guard period.withUnsafeMutableBufferPointer({ ring.read(into: $0.baseAddress!, frames: 100) }) else {
                continue
            }
            for index in 0..<100
            where period[2 * index] != Float(expected + index) || period[2 * index + 1] != -Float(expected + index) {
                wrong += 1
            }
            expected += 100
        }
        #expect(wrong == 0)
        #expect(ring.fillFrames == 0)
    }
}
