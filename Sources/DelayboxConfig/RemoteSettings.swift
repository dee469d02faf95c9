import DelayboxEngine

/// A remote control through the kernel's input layer (docs/controls.md): an IR receiver
/// that the kernel decodes (the `gpio-ir` overlay, rc-core and a keymap), a USB remote or
/// a keyboard. Its keys, by the kernel's names, do what the front panel's buttons do.
public struct RemoteSettings: Sendable, Equatable {
    /// The input device: the name the kernel gives it (`gpio_ir_recv`, as
    /// `/proc/bus/input/devices` lists it) or a path (`/dev/input/by-path/…`, `/dev/input/event0`).
    public var device: String
    /// The keys that do something, by code.
    public var keys: [RemoteKey]
    /// The IR keymap the kernel decodes this remote with (a file ir-keytable loads): the
    /// package's udev rule loads it into the receiver `device` names, at boot and whenever
    /// the service starts; nil: the kernel's own (a USB remote, a keyboard).
    public var keymap: String?

    /// Where the package keeps the keymaps a name in `remote.keymap` stands for.
    public static let keymapDirectory = "/usr/share/delaybox/rc_keymaps"

    public init(device: String, keys: [RemoteKey], keymap: String? = nil) {
        self.device = device
        self.keys = keys
        self.keymap = keymap
    }

    /// `remote.keymap` as a file: a name is one of the package's keymaps, a path itself.
    public var keymapPath: String? {
        keymap.map { $0.hasPrefix("/") ? $0 : "\(Self.keymapDirectory)/\($0).toml" }
    }
}

/// One key of the remote and what it does.
public struct RemoteKey: Sendable, Equatable {
    /// The kernel's name (`KEY_VOLUMEUP`) and code (115).
    public var name: String
    public var code: Int
    public var press: ControlBinding?
    /// Held for `RemoteKey.longPressHold`: e.g. a number key saves the delay in its preset.
    public var longPress: ControlBinding?

    /// How long a key is held for its long press.
    public static let longPressHold = TimeAmount.seconds(1)

    public init(name: String, code: Int, press: ControlBinding?, longPress: ControlBinding? = nil) {
        self.name = name
        self.code = code
        self.press = press
        self.longPress = longPress
    }
}

/// An action with the preset slot it works on: `volume_up`, `preset_recall 3`.
public struct ControlBinding: Sendable, Equatable {
    public var action: ControlAction
    /// The preset slot of `preset_recall` and `preset_save` (1 when not written).
    public var slot: Int

    /// The slots a binding may name.
    public static let slots = 1...9

    public init(_ action: ControlAction, slot: Int = 1) {
        self.action = action
        self.slot = slot
    }

    /// Reads `action` or `action slot`, or says why it cannot.
    public static func parse(_ text: String) -> Result<ControlBinding, BindingError> {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first, let action = ControlAction(rawValue: first) else {
            return .failure(.unknownAction(words.first ?? text))
        }
        guard words.count > 1 else { return .success(ControlBinding(action)) }
        guard action == .presetRecall || action == .presetSave else { return .failure(.slotNotTaken(action)) }
        guard words.count == 2, let slot = Int(words[1]), slots.contains(slot) else { return .failure(.badSlot(text)) }
        return .success(ControlBinding(action, slot: slot))
    }

    public enum BindingError: Error, Equatable {
        case unknownAction(String)
        case slotNotTaken(ControlAction)
        case badSlot(String)
    }
}
