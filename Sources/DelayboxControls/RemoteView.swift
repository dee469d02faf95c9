import DelayboxConfig
import DelayboxUnits

/// The console's `remote`: which device the remote's thread has open (or why none), and
/// the last keys it saw — what an installer checks when a remote "does nothing" (no keys:
/// the receiver, its overlay or the keymap; keys but no action: `remote.keys`).
public struct RemoteView: Sendable {
    public struct Key: Sendable, Equatable {
        public var code: Int
        /// What the board config has it do (`volume_up`, `preset_recall 3`); nil: not mapped.
        public var action: String?
        /// When it was pressed (monotonic).
        public var time: Instant
    }

    /// How many presses are kept.
    public static let kept = 5

    /// What the board config names (`gpio_ir_recv`).
    public var device: String
    /// The open device: its name and path.
    public var open: (name: String, path: String)?
    /// Why no device is open, while it is looked for.
    public var problem: String?
    public var presses = 0
    /// The last presses, newest last.
    public private(set) var last: [Key] = []

    public init(device: String) { self.device = device }

    /// A press of `code` at `time`, mapped by `remote` or not.
    public mutating func pressed(_ code: Int, at time: Instant, remote: RemoteSettings) {
        presses += 1
        let action = remote.keys.first { $0.code == code }.map { key in
            [key.press, key.longPress].compactMap { $0.map(Self.describe) }.joined(separator: " / held: ")
        }
        last = (last + [Key(code: code, action: action, time: time)]).suffix(Self.kept)
    }

    /// The console's answer, seen at `now` (monotonic).
    public func answer(now: Instant) -> RemoteAnswer {
        let device =
            open.map { "'\($0.name)' (\($0.path))" } ?? "not open: \(problem ?? "looking for '\(self.device)'")"
        let keys = last.reversed().map { key in
            let name = InputKeyName.name(of: key.code) ?? "code \(key.code)"
            let seconds = max(.zero, now - key.time).seconds
            return "\(name) (\(key.action ?? "not mapped")) \(String(seconds.formatted1)) s ago"
        }
        return RemoteAnswer(
            device: device, presses: String(presses), lastKeys: keys.isEmpty ? "none yet" : keys.joined(separator: ", ")
        )
    }

    static func describe(_ binding: ControlBinding) -> String {
        binding.action == .presetRecall || binding.action == .presetSave
            ? "\(binding.action.rawValue) \(binding.slot)" : binding.action.rawValue
    }
}

extension Double {
    /// To one decimal, without Foundation's formatting.
    var formatted1: String {
        let tenths = Int64((self * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
