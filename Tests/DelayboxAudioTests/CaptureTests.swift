import DelayboxALSA
import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Testing

/// Line-in capture: the sample conversion, the PCM packets' decoder, and real libasound
/// capturing through its `file` plugin (over `null`) in virtual time.
@Suite(.timeLimit(.minutes(10))) struct CaptureTests {
    @Test func monoAndWideInputsBecomeStereoAtSixteenBits() {
        let mono: [Int16] = [100, -200, 32_767]
        var out = [Int16](repeating: 0, count: 6)
        mono.withUnsafeBytes {
            CaptureConverter(format: .init(rate: 48_000, channels: 1, sampleFormat: .s16)).convert(
                $0.baseAddress!, frames: 3, into: &out)
        }
        #expect(out == [100, 100, -200, -200, 32_767, 32_767])
        // S32, four channels: the first two, top 16 bits.
        let wide: [Int32] = [0x1234_0000, -0x1000_0000, 7, 7, -0x0001_0000, 0x7FFF_FFFF, 7, 7]
        wide.withUnsafeBytes {
            CaptureConverter(format: .init(rate: 48_000, channels: 4, sampleFormat: .s32)).convert(
                $0.baseAddress!, frames: 2, into: &out)
        }
        #expect(Array(out.prefix(4)) == [0x1234, -0x1000, -1, 0x7FFF])
        // S24 in 32-bit containers: sign-extended from bit 23.
        let s24: [Int32] = [0x00_7F_FF_FF, 0x00_80_00_00]
        s24.withUnsafeBytes {
            CaptureConverter(format: .init(rate: 48_000, channels: 1, sampleFormat: .s24)).convert(
                $0.baseAddress!, frames: 2, into: &out)
        }
        #expect(Array(out.prefix(4)) == [0x7FFF, 0x7FFF, -0x8000, -0x8000])
    }

    @Test func thePCMDecoderReadsWhatTheConverterWrote() throws {
        let samples: [Int16] = [0, 16_384, -32_768, 32_767]
        var output = [Float](repeating: 9, count: 8)
        let frames = try samples.withUnsafeBytes { payload in
            try output.withUnsafeMutableBufferPointer {
                try PCMPacketDecoder().decode(payload, frameCount: 2, into: $0)
            }
        }
        #expect(frames == 2)
        #expect(Array(output.prefix(4)) == [0, 0.5, -1, Float(32_767) / 32_768])
        #expect(output[4] == 9, "nothing past the packet")
    }

    /// The plugin has no clock: the driver hands out a period when it has been captured,
    /// and a reader late by more than the buffer loses what overflowed, once.
    @Test func captureThroughLibasoundIsPacedAndOverrunsWhenTheReaderIsLate() throws {
        let clock = ManualClock()
        let input = try ALSAInput(
            .init(device: "file:FILE=/dev/null,FORMAT=raw", sampleFormat: .s16, periodFrames: 960, periods: 10),
            clock: clock, sleeper: ManualSleeper(clock: clock))
        #expect(input.isPaced)
        #expect(input.periodFrames == 960 && input.bufferFrames == 9_600)
        var period = [Int16](repeating: 1, count: 1_920)
        let start = clock.now()
        for _ in 0..<50 { try input.read(into: &period) }
        #expect(clock.now().frames(since: start) == 50 * 960, "one second of periods takes one second")
        #expect(period.allSatisfy { $0 == 0 }, "the null device captures silence: \(period.prefix(8))")
        #expect(input.delayFrames() == 0)
        clock.advance(byNanoseconds: 300_000_000)
        #expect(input.delayFrames() == 300 * 48)
        try input.read(into: &period)
        #expect(input.overruns == 1)
        #expect(input.delayFrames() == 9_600 - 960, "what overflowed the 200 ms buffer is gone")
        #expect(clock.now().frames(since: start) == 50 * 960 + 300 * 48, "the backlog is read at once")
    }
}
