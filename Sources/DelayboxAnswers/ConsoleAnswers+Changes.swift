import DelayboxConfig
import DelayboxConsole

/// What the console changes beyond the executor's commands: an update asked for, the running
/// config (`config set`, `channel add`/`remove`, `config save`).
extension ConsoleAnswers {
    /// `update [VERSION]`: leaves the request the package's `delaybox-update.path` waits
    /// for in the service's runtime directory (holding the version asked for, if any);
    /// root's `delaybox-update.service` then updates Delaybox from the box's apt sources,
    /// and the healer checks what it installed. The box itself has no privilege to do any
    /// of it.
    /// `later`: the line says so (`later [VERSION]`), and root's helper leaves the restart
    /// to the box's update window or its next quiet moment.
    func askForUpdate(version: String?, later: Bool = false, effects: inout [ConsoleEffect]) -> ConsoleReply? {
        let line = later ? (["later"] + (version.map { [$0] } ?? [])).joined(separator: " ") : version
        let what = version.map { "asked for \($0)" } ?? "asked"
        let when = later ? "; it starts in the update window (\(config.updateWindow)) or once the box is quiet" : ""
        let done = ResultAnswer(update: "\(what)\(when): `status` says how it goes (release)")
        return leaveRequest("update-request", holding: line, for: "an update", done: done, effects: &effects)
    }

    /// `update check`: a look for a newer release, nothing installed (`release` says what
    /// root's helper found: `checked …: VERSION is available`, or `up to date`).
    func lookForUpdate(effects: inout [ConsoleEffect]) -> ConsoleReply? {
        let done = ResultAnswer(update: "looking for a new release: `status` says what it finds (release)")
        return leaveRequest(
            "update-request", holding: "check", for: "a look for a new release", done: done, effects: &effects)
    }

    /// `update daily [on|off]`: the nightly look for a new release, shown or switched (kept
    /// beside the settings, where the package's updater reads it).
    func dailyUpdates(_ on: Bool?, effects: inout [ConsoleEffect]) -> ConsoleReply? {
        let shown = { (on: Bool) in SettingAnswer(dailyUpdates: on ? "on" : "off") }
        guard let on else { return .answer(shown(box.dailyUpdates)) }
        guard facts.requestDirectory != nil, let path = dailyUpdatesPath else {
            return .refusal(
                .unavailable, "this box was not installed from the package: it has no daily updates (docs/deploy.md)")
        }
        effects.append(
            .write(
                FileWrite(
                    path: path, content: .bytes(Array((on ? "on\n" : "off\n").utf8)), mode: 0o644,
                    purpose: .dailyUpdates(on: on))))
        return nil
    }

    /// Leaves `file` in the service's runtime directory for root's helper (a path unit
    /// waits for it), holding `line` if any: nil, the reply (`done`) waiting for the file
    /// to be written; else the refusal. Written whole, then renamed: the path unit starts
    /// the helper as soon as the request exists, and it must not read half a line.
    func leaveRequest(
        _ file: String, holding line: String?, for what: String, done: ResultAnswer, effects: inout [ConsoleEffect]
    ) -> ConsoleReply? {
        guard let directory = facts.requestDirectory, !directory.isEmpty else {
            return .refusal(
                .unavailable,
                "this box was not installed from the package: nothing here can ask for \(what) (docs/deploy.md)")
        }
        effects.append(
            .write(
                FileWrite(
                    path: directory + "/" + file, content: .bytes(Array((line.map { $0 + "\n" } ?? "").utf8)),
                    mode: 0o640, purpose: .request(what: what, done: done))))
        return nil
    }

    /// `config get KEY`: the value in force and where it was written (the board file, a
    /// base it extends, or the site file); for an unknown key, the keys there are.
    func configValue(_ key: String) -> ConsoleReply {
        guard let document else {
            return .refusal(.unavailable, "the config file cannot be read again; `config show` has the running values")
        }
        // A secret is said to be set, not shown — in the answer and in a refusal's "there:"
        // alike (`config get mqtt.password.x` once printed the password there).
        let found = document.redacting(BoardConfig.secretKeys(in: document)).lookup(key)
        guard let node = found.node else {
            let place = found.deepest.path.isEmpty ? "the config" : "'\(found.deepest.path)'"
            return .refusal(.refused, "no '\(found.missing ?? key)' in \(place); there: \(found.deepest.node.summary)")
        }
        return .answer(
            ConfigValueAnswer(key: key, value: node.summary, from: "\(node.location.file):\(node.location.line)"))
    }

    /// `config set KEY VALUE`: the running config with that value, if the result is valid
    /// and the key is one the config knows; takes effect as a reload does (`configEdited`).
    mutating func setConfig(_ key: String, to value: String, effects: inout [ConsoleEffect]) -> ConsoleReply {
        guard let document else {
            return .refusal(.unavailable, "the config file cannot be read again; nothing can be set")
        }
        let origin = SourceLocation(file: "config set", line: 1, column: 1)
        guard let override = document.override(setting: key, to: .scalar(value, origin)) else {
            return .refusal(.refused, "'\(key)' cannot be set: it runs into a value or past the end of a list")
        }
        if let problem = apply(override, origin: origin, effects: &effects) { return .refusal(.refused, problem) }
        let shown = self.document.map { BoardConfig.secretKeys(in: $0).contains(key) } == true ? Secret.shown : value
        return .answer(ResultAnswer(key: key, value: shown, saved: ResultAnswer.unsaved))
    }

    /// `channel add` and `channel remove`: the channel list changed by `change` (which may
    /// refuse, in words), checked as the file would be and live at once, like `config set`.
    mutating func changeChannels(
        _ command: String, answer: ResultAnswer, effects: inout [ConsoleEffect],
        _ change: (inout [ConfigNode], SourceLocation) -> String?
    ) -> ConsoleReply {
        guard let document else {
            return .refusal(.unavailable, "the config file cannot be read again; nothing can be changed")
        }
        let origin = SourceLocation(file: command, line: 1, column: 1)
        guard case .sequence(var items, _)? = document.lookup("channels").node else {
            return .refusal(.refused, "the config has no channel list")
        }
        if let refusal = change(&items, origin) { return .refusal(.refused, refusal) }
        let override = ConfigNode.mapping([(ConfigNode.Key("channels", at: origin), .sequence(items, origin))], origin)
        if let problem = apply(override, origin: origin, effects: &effects) { return .refusal(.refused, problem) }
        var answer = answer
        answer.saved = ResultAnswer.unsaved
        return .answer(answer)
    }

    /// Lays `override` over the running config when the result is valid (nil), as a reload
    /// does, and remembers it for `config save`, telling the playout (`configEdited`); else
    /// what is wrong with it.
    mutating func apply(_ override: ConfigNode, origin: SourceLocation, effects: inout [ConsoleEffect]) -> String? {
        guard let document else { return "the config file cannot be read again" }
        let fresh = document.merged(with: override)
        let read = BoardConfig.read(fresh)
        let problems = read.diagnostics.filter { $0.severity == .error || $0.location.file == origin.file }
        guard let freshConfig = read.config, problems.isEmpty else {
            return problems.map(\.message).joined(separator: "; ")
        }
        unsaved = (unsaved ?? .mapping([], origin)).merged(with: override)
        (box.document, box.config) = (fresh, freshConfig)
        effects.append(.configEdited(freshConfig, document: fresh))
        return nil
    }

    /// `config save`: what `config set` changed, added to the saved file beside the state
    /// file, which is laid over the site file at every start. The file is read, merged and
    /// written off the playout thread (a slow disk's fsync cost the output 95 periods:
    /// SlowDiskTests), then the files are read again; `fileWritten` answers once they are.
    /// The service's alone (0600): it may hold the broker's password (`venue join`).
    func saveConfig(effects: inout [ConsoleEffect]) -> ConsoleReply? {
        guard let path = consoleConfigPath else {
            return .refusal(.unavailable, "no place to save to (the appliance has no state directory)")
        }
        guard let unsaved else { return .refusal(.refused, "nothing to save: `config set KEY VALUE` first") }
        effects.append(
            .write(FileWrite(path: path, content: .configOverlay(unsaved), mode: 0o600, purpose: .configSave)))
        return nil
    }

    /// The reply to the request that asked for `write`, once it is written (`error`: why
    /// not). `config save`'s changes are saved then (the files are read again before the
    /// reply is given); unsaved still when the file could not be written.
    public mutating func fileWritten(_ write: FileWrite, error: String?) -> ConsoleReply {
        switch write.purpose {
        case .request(let what, let done):
            if let error { return .refusal(.unavailable, "cannot ask for \(what): \(error)") }
            return .answer(done)
        case .configSave:
            if let error { return .refusal(.unavailable, "cannot write \(write.path): \(error)") }
            unsaved = nil
            return .answer(ResultAnswer(saved: write.path))
        case .dailyUpdates(let on):
            if let error { return .refusal(.unavailable, "cannot write \(write.path): \(error)") }
            return .answer(SettingAnswer(dailyUpdates: on ? "on" : "off"))
        }
    }

    /// `channel add NAME URL`: a station the page or MQTT may add, up to
    /// `NetworkDoorPolicy.maximumChannels` from a network door.
    mutating func addChannel(
        _ name: String, url: String, door: NetworkDoorPolicy.Door?, effects: inout [ConsoleEffect]
    ) -> ConsoleReply {
        return changeChannels("channel add", answer: ResultAnswer(channel: name, url: url), effects: &effects) {
            items, origin in
            // A station, not a file or another protocol, from every door: a local file is
            // named in the board config, by its owner.
            if let refusal = NetworkDoorPolicy.linkRefusal(url) { return refusal }
            if door != nil, items.count >= NetworkDoorPolicy.maximumChannels {
                return "the box has \(items.count) channels: \(door == .page ? "the page" : "MQTT") adds none beyond "
                    + "\(NetworkDoorPolicy.maximumChannels) (remove one first, or add it at the box)"
            }
            items.append(
                .mapping(
                    [
                        (ConfigNode.Key("name", at: origin), .scalar(name, origin)),
                        (ConfigNode.Key("url", at: origin), .scalar(url, origin)),
                    ], origin))
            return nil
        }
    }

    /// `channel remove NAME`.
    mutating func removeChannel(_ name: String, effects: inout [ConsoleEffect]) -> ConsoleReply {
        let names = config.channels.channels.map(\.name).joined(separator: ", ")
        return changeChannels("channel remove", answer: ResultAnswer(channel: name), effects: &effects) {
            items, _ in
            guard
                let index = items.firstIndex(where: {
                    if case .scalar(name, _)? = $0["name"] { true } else { false }
                })
            else {
                return "no channel named '\(name)'; the channels: \(names)"
            }
            items.remove(at: index)
            return nil
        }
    }
}
