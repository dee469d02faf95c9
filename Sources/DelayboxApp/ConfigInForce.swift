import DelayboxAnswers
import DelayboxConfig
import DelayboxLog
import DelayboxPlatform

/// The config in force and the two ways it changes while the box plays: the console's
/// `config set` (edited in `ConsoleAnswers`, handed over as `ConsoleEffect.configEdited`),
/// and the files read again (SIGHUP, or the console's `config save`: `ConsoleEffect.reload`).
/// A file that no longer reads changes nothing.
struct ConfigInForce {
    private(set) var config: BoardConfig
    /// The config as written (values with their files and lines), for `config get`.
    private(set) var document: ConfigNode?
    /// Reads the config files again; throws when they are invalid.
    private let read: () throws -> (config: BoardConfig, document: ConfigNode?)
    private var reloadRequested = false
    private let logger = Logger(label: "delaybox.config")

    init(
        config: BoardConfig, document: ConfigNode?,
        read: @escaping () throws -> (config: BoardConfig, document: ConfigNode?)
    ) {
        (self.config, self.document, self.read) = (config, document, read)
    }

    /// SIGHUP, or `config save`'s file written: the files are read again at the next `takeChanges`.
    mutating func requestReload() { reloadRequested = true }

    /// Takes over the console's edit (`edited`: `answers` holds one) and reads the files
    /// again when asked (telling systemd through `notify`); the console then answers from
    /// the result. Returns the config replaced, when the one in force is now different.
    mutating func takeChanges(
        edited: Bool, from answers: inout ConsoleAnswers, notify: (String) -> Void
    ) -> BoardConfig? {
        guard edited || reloadRequested else { return nil }
        let before = config
        if edited { (config, document) = (answers.config, answers.document) }
        if reloadRequested {
            reloadRequested = false
            notify("RELOADING=1")
            reload()
            notify("READY=1")
            (answers.config, answers.document) = (config, document)
        }
        return config == before ? nil : before
    }

    /// What can change live takes effect (channels, delay step, defaults for the next start).
    private mutating func reload() {
        do {
            let fresh = try read()
            if let ram = SystemMemory.totalBytes(), let problem = ChannelMemory.problem(fresh.config, ramBytes: ram) {
                logger.error("config not reloaded, keeping the running one: \(problem)")
                return
            }
            let changed = fresh.config != config
            (config, document) = fresh
            logger.info(
                "config reloaded\(changed ? "" : " (unchanged)"): \(config.channels.channels.count) channel(s), delay step \(config.defaults.delayStepMs) ms"
            )
        } catch {
            logger.error("config not reloaded, keeping the running one: \(error)")
        }
    }
}
