/// A count of audio frames (48 kHz) on one of the engine's two clocks, kept apart by type:
/// this box's (`LocalFrames`: when, and how long — a delay at the jack) and the station's
/// (`StationFrames`: where on the timeline, and how much audio). The station's clock runs
/// fast or slow by up to hundreds of ppm, so a delay added to a position unconverted is off
/// by that much (a 10-minute delay by 300 ms at 500 ppm); only `LiveLine` converts, at the
/// station's rate as followed. Arithmetic stays within a kind.
protocol FrameCount: Hashable, Comparable, AdditiveArithmetic, Sendable, CustomStringConvertible {
    var count: Int64 { get }
    init(_ count: Int64)
}

extension FrameCount {
    static var zero: Self { Self(0) }
    static func + (left: Self, right: Self) -> Self { Self(left.count + right.count) }
    static func - (left: Self, right: Self) -> Self { Self(left.count - right.count) }
    static func < (left: Self, right: Self) -> Bool { left.count < right.count }
    static prefix func - (frames: Self) -> Self { Self(-frames.count) }
    var description: String { "\(count)" }
}

/// Frames on this box's clock at the nominal rate: a local time since the engine's origin,
/// or a span of local time (a delay at the jack, the output's latency, a buffer's length).
struct LocalFrames: FrameCount {
    let count: Int64
    init(_ count: Int64) { self.count = count }
}

/// Frames of the station's stream: a position on the timeline (where a frame of the
/// programme lies in the delay line), or a span of the station's audio.
struct StationFrames: FrameCount {
    let count: Int64
    init(_ count: Int64) { self.count = count }
}
