import DelayboxMQTT
import DelayboxPlatform
import DelayboxState

#if canImport(Glibc)
    import Glibc
#endif

/// Root's side of a venue (issue 70; `delaybox venue-helper`, started by delaybox-venue.path
/// when the service leaves a request): makes this box the venue's hub — Debian's mosquitto
/// with a password per box and the venue's ACL, chrony serving the LAN, the Avahi
/// announcement — lets boxes into its broker, points this box's chrony at a hub, or undoes
/// all of it. Nothing else: the service cannot write /etc, start services or read the
/// broker's password file, and through this helper it can only write the venue's own files.
///
/// Passwords reach mosquitto hashed by its own `mosquitto_passwd -U` on a root-only file,
/// never on a command line.
public struct VenueHelper: Sendable {
    public static let requestName = VenueRequest.fileName
    public static let answerName = VenueRequest.answerFileName

    /// Runs a program (its full path) with arguments: the real one is `ChildProcess.run`.
    public typealias Runner = @Sendable (String, [String]) -> ChildProcess.Outcome

    /// The service's runtime directory, where requests and answers are (/run/delaybox).
    public let runtimeDirectory: String
    public let files: VenuePaths
    /// The broker's port on the LAN.
    public let brokerPort: Int
    let run: Runner

    public init(
        runtimeDirectory: String, files: VenuePaths = VenuePaths(root: ""), brokerPort: Int = 1883,
        run: @escaping Runner = { ChildProcess.run($0, $1) }
    ) {
        self.runtimeDirectory = runtimeDirectory
        self.files = files
        self.brokerPort = brokerPort
        self.run = run
    }

    /// Where the service asks and root answers.
    public static func mailbox(_ runtimeDirectory: String) -> HelperMailbox {
        HelperMailbox(directory: runtimeDirectory, requestName: requestName, answerName: answerName)
    }

    /// Serves the request that waits, answering it beside it: what happened, in words for
    /// the journal; nil when none waits.
    public func serve() -> String? {
        Self.mailbox(runtimeDirectory).serve(
            what: "venue", parse: VenueRequest.parse, describe: \.summary, perform: perform)
    }

    /// Carries `request` out; nil when done, else why not.
    func perform(_ request: VenueRequest) -> String? {
        switch request {
        case .serve(let group, let password, let pagePort):
            for program in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_passwd", "/usr/sbin/chronyd"]
            where access(program, X_OK) != 0 {
                return "\(program) is not installed: a hub needs the packages mosquitto and chrony"
            }
            unlink(files.timeSource)
            let written =
                write(VenueBrokerFiles.acl(group: group), to: files.acl, mode: 0o640, brokerReads: true)
                ?? replacePassword(of: VenueBrokerFiles.manager, with: password, keepingOthers: false)
                ?? write(
                    VenueHubFiles.broker(port: brokerPort, passwordFile: files.passwords, aclFile: files.acl),
                    to: files.broker, mode: 0o644)
                ?? write(VenueHubFiles.timeServer, to: files.timeServer, mode: 0o644)
                ?? write(
                    VenueHubFiles.announcement(group: group, brokerPort: brokerPort, pagePort: pagePort),
                    to: files.announcement,
                    mode: 0o644)
            return written
                ?? systemctl(["enable", "mosquitto.service"]) ?? systemctl(["restart", "mosquitto.service"])
                ?? systemctl(["restart", "chrony.service"])
        case .admit(let user, let password):
            return hub() ?? replacePassword(of: user, with: password, keepingOthers: true)
                ?? systemctl(["reload", "mosquitto.service"])
        case .dismiss(let user):
            return hub() ?? rewritePasswords { $0.filter { !Self.isEntry($0, of: user) } }
                ?? systemctl(["reload", "mosquitto.service"])
        case .follow(let hub):
            guard access(files.broker, F_OK) != 0 else {
                return "this box is the venue's hub: it keeps the time itself (leave the venue first)"
            }
            return write(VenueHubFiles.timeSource(hub: hub), to: files.timeSource, mode: 0o644)
                ?? failure(of: run("/usr/bin/chronyc", ["reload", "sources"]), "chronyc reload sources")
        case .leave:
            let wasHub = access(files.broker, F_OK) == 0
            for path in [
                files.broker, files.passwords, files.acl, files.timeServer, files.announcement, files.timeSource,
            ] {
                if unlink(path) != 0, errno != ENOENT {
                    return "cannot remove \(path): \(String(cString: strerror(errno)))"
                }
            }
            guard wasHub else {
                return failure(of: run("/usr/bin/chronyc", ["reload", "sources"]), "chronyc reload sources")
            }
            return systemctl(["disable", "--now", "mosquitto.service"]) ?? systemctl(["restart", "chrony.service"])
        }
    }

    /// Nil on the venue's hub, else why not.
    private func hub() -> String? {
        access(files.broker, F_OK) == 0 ? nil : "this box is not a venue's hub"
    }

    /// `user`'s line of the password file made anew from `password` — hashed by mosquitto's
    /// own tool in a root-only file of its own — the other users' kept if asked.
    private func replacePassword(of user: String, with password: String, keepingOthers: Bool) -> String? {
        let plain = files.passwords + ".new-user"
        if let problem = write("\(user):\(password)\n", to: plain, mode: 0o600) { return problem }
        defer { unlink(plain) }
        if let problem = failure(of: run("/usr/bin/mosquitto_passwd", ["-U", plain]), "mosquitto_passwd") {
            return problem
        }
        guard let hashed = Self.lines(of: plain).first, Self.isEntry(hashed, of: user), hashed != "\(user):\(password)"
        else {
            return "mosquitto_passwd did not hash \(user)'s password"
        }
        return rewritePasswords { lines in
            (keepingOthers ? lines.filter { !Self.isEntry($0, of: user) } : []) + [hashed]
        }
    }

    private func rewritePasswords(_ change: ([String]) -> [String]) -> String? {
        let lines = change(Self.lines(of: files.passwords))
        return write(lines.map { $0 + "\n" }.joined(), to: files.passwords, mode: 0o640, brokerReads: true)
    }

    private static func isEntry(_ line: String, of user: String) -> Bool { line.hasPrefix(user + ":") }

    /// A file's lines, none when it is not there.
    private static func lines(of path: String) -> [String] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 1024)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let trimmed = line.hasSuffix("\n") ? String(line.dropLast()) : line
            if !trimmed.isEmpty { lines.append(trimmed) }
        }
        return lines
    }

    /// Writes `text` whole at `path` (its directory made), root's; `brokerReads`: group
    /// `mosquitto` may read it (the broker reads its password file and ACL as that user).
    private func write(_ text: String, to path: String, mode: mode_t, brokerReads: Bool = false) -> String? {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var made = ""
        for part in directory.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o755) != 0, errno != EEXIST {
                return "cannot make \(made): \(String(cString: strerror(errno)))"
            }
        }
        do {
            try DurableFile.write(Array(text.utf8), to: path, mode: mode)
        } catch {
            return "cannot write \(path): \(error)"
        }
        if brokerReads, let group = getgrnam("mosquitto") {
            chown(path, 0, group.pointee.gr_gid)
        }
        return nil
    }

    private func systemctl(_ arguments: [String]) -> String? {
        failure(of: run("/usr/bin/systemctl", arguments), "systemctl " + arguments.joined(separator: " "))
    }

    private func failure(of outcome: ChildProcess.Outcome, _ what: String) -> String? {
        guard outcome.status != 0 else { return nil }
        let said = outcome.text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return "\(what) failed (\(outcome.status.map { "status \($0)" } ?? "killed")): \(said.prefix(200))"
    }
}
