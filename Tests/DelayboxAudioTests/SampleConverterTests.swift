import DelayboxAudio
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct SampleConverterTests {
    /// Converts stereo frames (left, right) and returns the device's integer samples.
    func convert(_ frames: [(Float, Float)], to format: OutputFormat) -> [Int32] {
        let source = frames.flatMap { [$0.0, $0.1] }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: frames.count * format.bytesPerFrame, alignment: 8)
        defer { raw.deallocate() }
        source.withUnsafeBufferPointer {
            SampleConverter(format: format).convert($0.baseAddress!, frames: frames.count, into: raw)
        }
        let count = frames.count * format.channels
        switch format.sampleFormat {
        case .s16: return (0..<count).map { Int32(raw.load(fromByteOffset: $0 * 2, as: Int16.self)) }
        case .s24, .s32: return (0..<count).map { raw.load(fromByteOffset: $0 * 4, as: Int32.self) }
        }
    }

    @Test func fullScaleAndClippingInEachFormat() {
        let frames: [(Float, Float)] = [(1, -1), (1.7, -3), (0.5, 0)]
        #expect(
            convert(frames, to: .init(rate: 48_000, channels: 2, sampleFormat: .s16)) == [
                32_767, -32_767, 32_767, -32_767, 16_384, 0,
            ])
        #expect(
            convert(frames, to: .init(rate: 48_000, channels: 2, sampleFormat: .s24))
                == [8_388_607, -8_388_607, 8_388_607, -8_388_607, 4_194_304, 0])
        let s32 = convert(frames, to: .init(rate: 48_000, channels: 2, sampleFormat: .s32))
        #expect(s32[0] > 2_147_483_000 && s32[1] < -2_147_483_000 && s32[2] == s32[0] && s32[4] == 1_073_741_760)
    }

    @Test func stereo16BitRoundsEverySampleToTheNearest() {
        var random = SystemRandomNumberGenerator()
        let edges: [(Float, Float)] = [(.nan, 3.5 / 32_767), (-0.5 / 32_767, 1e-9)]
        let frames: [(Float, Float)] =
            (0..<4_096).map { _ in
                (Float.random(in: -1.2...1.2, using: &random), Float.random(in: -1...1, using: &random))
            } + edges
        let expected = frames.flatMap { [$0.0, $0.1] }.map { value -> Int32 in
            Int32((min(1, max(-1, value)) * 32_767).rounded(.toNearestOrEven))
        }
        #expect(convert(frames, to: .init(rate: 48_000, channels: 2, sampleFormat: .s16)) == expected)
    }

    @Test func monoCodecGetsTheMixdownAndWideOnesSilentExtraChannels() {
        let frames: [(Float, Float)] = [(0.5, 0.25), (-1, 1)]
        #expect(convert(frames, to: .init(rate: 48_000, channels: 1, sampleFormat: .s16)) == [12_288, 0])
        #expect(
            convert(frames, to: .init(rate: 48_000, channels: 4, sampleFormat: .s16)) == [
                16_384, 8_192, 0, 0, -32_767, 32_767, 0, 0,
            ])
    }
}

@Suite(.timeLimit(.minutes(10))) struct VolumeCurveTests {
    @Test func perceptualCurveInDecibels() {
        #expect(VolumeCurve.decibels(100) == 0)
        #expect(abs(VolumeCurve.decibels(50) - -18.06) < 0.01)
        #expect(abs(VolumeCurve.decibels(10) - -60) < 1e-9)
        #expect(VolumeCurve.decibels(0) == -.infinity)
        #expect(VolumeCurve.gain(0) == 0 && VolumeCurve.gain(100) == 1)
        // Software gain and dB agree, and every step is quieter than the one above it.
        for volume in 1...100 {
            #expect(abs(20 * log10(Double(VolumeCurve.gain(volume))) - VolumeCurve.decibels(volume)) < 1e-3)
            #expect(VolumeCurve.gain(volume) > VolumeCurve.gain(volume - 1))
        }
    }
}
