import DelayboxCommands

extension BoardConfig {
    /// `remote:` — the input device and its keys, each `KEY_NAME: action` or
    /// `KEY_NAME: {press: action, long_press: action}` (an action may name a preset slot:
    /// `preset_recall 3`).
    static func readRemote(_ remote: ConfigReader, log: DiagnosticLog) -> RemoteSettings? {
        defer { remote.finish() }
        let device = remote.string("device")
        if device == nil, let location = remote.location {
            log.error(location, "'remote.device' is missing: the input device's name or path")
        }
        // Read by a root script (the udev rule's) as well: a plain name or an absolute path.
        let keymap = remote.string("keymap")
        if let keymap, let at = remote.value("keymap")?.location, !Self.isKeymap(keymap) {
            log.error(
                at,
                "'remote.keymap' is '\(keymap)': a keymap the package has (car-mp3) or the absolute path of a .toml file (letters, digits, . _ - /)"
            )
        }
        let keysSection = remote.section("keys")
        guard case .mapping(let entries, let location)? = keysSection.node else {
            if let location = remote.location, keysSection.node == nil {
                log.error(location, "'remote.keys' is missing: which key does what")
            }
            return nil
        }
        var keys: [RemoteKey] = []
        for entry in entries {
            let name = entry.key.name
            guard let code = InputKeyName.codes[name] else {
                log.error(
                    entry.key.location,
                    Suggestion.message(
                        "'remote.keys.\(name)' is not a key name the box knows (KEY_VOLUMEUP, KEY_1, KEY_OK, …)",
                        for: name, among: Array(InputKeyName.codes.keys)))
                continue
            }
            var key = RemoteKey(name: name, code: code, press: nil)
            if case .scalar(let text, let at) = entry.value {
                key.press = binding(text, at: at, key: "remote.keys.\(name)", log: log)
            } else {
                let reader = ConfigReader(entry.value, path: "remote.keys.\(name)", log: log)
                defer { reader.finish() }
                key.press = reader.string("press").flatMap {
                    binding($0, at: reader.value("press")!.location, key: reader.qualified("press"), log: log)
                }
                key.longPress = reader.string("long_press").flatMap {
                    binding($0, at: reader.value("long_press")!.location, key: reader.qualified("long_press"), log: log)
                }
                if reader.value("press") == nil, reader.value("long_press") == nil, let at = reader.location {
                    log.warning(at, "key '\(name)' does nothing (no press or long_press)")
                }
            }
            keys.append(key)
        }
        if entries.isEmpty { log.error(location, "'remote.keys' names no key") }
        guard let device else { return nil }
        return RemoteSettings(device: device, keys: keys, keymap: keymap.flatMap { Self.isKeymap($0) ? $0 : nil })
    }

    static func isKeymap(_ text: String) -> Bool {
        let plain =
            !text.isEmpty && text.utf8.count <= 200 && !text.contains("..")
            && text.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-/".unicodeScalars.contains($0))
            }
        return plain && (text.hasPrefix("/") ? text.hasSuffix(".toml") : !text.contains("/"))
    }

    private static func binding(_ text: String, at location: SourceLocation, key: String, log: DiagnosticLog)
        -> ControlBinding?
    {
        switch ControlBinding.parse(text) {
        case .success(let binding): return binding
        case .failure(.unknownAction(let word)):
            let allowed = ControlAction.allCases.map(\.rawValue)
            log.error(
                location,
                Suggestion.message(
                    "'\(key)' cannot be '\(word)' (allowed: \(allowed.joined(separator: ", ")))",
                    for: word, among: allowed))
        case .failure(.slotNotTaken(let action)):
            log.error(
                location, "'\(key)': '\(action.rawValue)' takes no slot number (only preset_recall and preset_save do)")
        case .failure(.badSlot(let text)):
            log.error(
                location,
                "'\(key)' is '\(text)': a preset slot is \(ControlBinding.slots.lowerBound)-\(ControlBinding.slots.upperBound)"
            )
        }
        return nil
    }
}
