import DelayboxAudio
import DelayboxEngine
import Synchronization

/// Where audio goes, as the board config or `--output` names it, and how to open it
/// (again, after a loss).
public struct OutputDevice: Sendable, Equatable, CustomStringConvertible {
    /// Every kind of output, by the name each is written with.
    public static let kinds: [any OutputKind.Type] = [ALSAOutputKind.self, WavOutputKind.self, NullOutputKind.self]
    /// The kind a name without a known scheme is: an ALSA PCM (`default`, `hw:0`).
    static let bareNameKind: any OutputKind.Type = ALSAOutputKind.self

    public let kind: any OutputKind
    /// Nothing: where audio goes when the configured device is not a device name.
    public static let null = OutputDevice(NullOutputKind())

    public init(_ kind: any OutputKind) { self.kind = kind }

    /// Parses `SCHEME:ARGUMENT` or `SCHEME` of one of `kinds`, or a bare ALSA name.
    public init?(_ text: String) {
        for kind in Self.kinds {
            let argument: String?? =
                if text == kind.scheme { .some(nil) } else if text.hasPrefix(kind.scheme + ":") {
                    .some(String(text.dropFirst(kind.scheme.count + 1)))
                } else { .none }
            if let argument, let parsed = kind.init(argument: argument) {
                self.kind = parsed
                return
            }
        }
        guard let bare = Self.bareNameKind.init(argument: text) else { return nil }
        kind = bare
    }

    public var description: String {
        let scheme = type(of: kind).scheme
        return kind.argument.map { scheme + ":" + $0 } ?? scheme
    }

    public static func == (left: OutputDevice, right: OutputDevice) -> Bool { left.description == right.description }

    /// Period and buffer to ask for, and the sample format a codec prefers.
    public struct Request: Sendable {
        public var sampleFormat: SampleFormat = .s16
        public var periodFrames = 960
        public var periods = 4
        public init() {}
    }

    /// A factory that opens this device; the first open creates, later ones (after a
    /// loss) reopen.
    func opener(_ request: Request, clock: any MonotonicClock, sleeper: any Sleeper) -> AudioPump.DriverFactory {
        let openedBefore = Atomic<Bool>(false)
        return { [kind] () throws(OutputError) -> any OutputDriver in
            try kind.open(
                request, reopening: openedBefore.exchange(true, ordering: .relaxed), clock: clock, sleeper: sleeper)
        }
    }
}
