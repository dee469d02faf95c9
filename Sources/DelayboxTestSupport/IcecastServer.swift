import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real icecast2 server on loopback, with its own config, log directory and free port,
/// and real ffmpeg live sources; everything started here is stopped by its PID.
/// (See ../shared/notes/icecast-on-loopback.md for what was measured.)
public final class IcecastServer {
    public private(set) var port: Int
    public let sourcePassword = "delaybox-source"
    public let adminPassword = "delaybox-admin"
    public let directory: URL
    private var server: LaunchedProgram?
    private var sources: [String: LaunchedProgram] = [:]

    /// Whether this machine can run the server (icecast2 and ffmpeg installed).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/icecast2")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
    }

    /// Starts a server on a port of its own. Should another test's server take that port
    /// between its choice and icecast's bind, icecast exits and another port is tried.
    /// icecast2 2.4.4 also dies of SIGSEGV now and then when its status page is asked for
    /// while it starts (2 in 20 starts polled by curl in a loop; 7 in 20 of the starts that
    /// follow a refused bind in `aServerWhosePortIsTakenMovesToAPortOfItsOwn`, which failed
    /// when two in a row did): such a start is tried again too, up to six in all.
    /// `port`: the first port to try (a test of that case), instead of a free one.
    public init(port first: Int? = nil) throws {
        directory = try ExternalTool.temporaryDirectory("icecast")
        port = try first ?? LoopbackPort.unused()
        for attempt in 1... {
            do {
                try start()
                return
            } catch is Exited where attempt < 6 {
                port = try LoopbackPort.unused()
            }
        }
    }

    deinit {
        // SIGKILL (`LaunchedProgram`'s end): ffmpeg answers SIGTERM by trying to flush to a
        // server that may be frozen.
        for source in sources.values { source.kill() }
        server?.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// This server's own mark in its status (its `location`): unique to this instance.
    var identity: String { directory.lastPathComponent }

    public func url(mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

    /// Starts (or restarts) the server and waits until it answers. A server still running
    /// is stopped first: it must not be left behind, holding the port. A start whose
    /// icecast2 dies of a signal (its SIGSEGV while starting, above) is tried again on the
    /// same port — a restart must keep its URL — up to five times.
    public func start() throws {
        for attempt in 1... {
            do {
                return try startOnce()
            } catch let exited as Exited where exited.crashed && attempt < 5 {
                continue
            }
        }
    }

    private func startOnce() throws {
        stop()
        let logs = directory.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("icecast.xml")
        try configuration(logs: logs.path).write(to: config, atomically: true, encoding: .utf8)
        if getuid() == 0 { try ExternalTool.run(["chown", "-R", "icecast2:icecast", logs.path]) }
        // What icecast says before its own log opens (a port it cannot bind) goes to stderr.
        let errors = logs.appendingPathComponent("stderr.log")
        let process = try LaunchedProgram(
            URL(fileURLWithPath: "/usr/bin/icecast2"), ["-c", config.path], errors: .file(errors))
        server = process
        // Answered by this server, not by another test's that took the port first: then
        // this one cannot bind it and exits, and `init` tries another port. (Answered by any
        // server, a test once went on with the other's — and failed when that one stopped.)
        try waitUntil("the server answering", timeout: 30, while: process, errors) {
            ((try? ExternalTool.run(["curl", "-sf", "http://127.0.0.1:\(self.port)/status-json.xsl"])) ?? "")
                .contains("\"location\":\"\(self.identity)\"")
        }
    }

    /// Stops the server (as a crash or restart would).
    public func stop() {
        server?.kill()
        server = nil
    }

    /// Freezes or thaws the server process (SIGSTOP / SIGCONT).
    public func freeze(_ frozen: Bool) {
        server?.signal(frozen ? SIGSTOP : SIGCONT)
    }

    /// Starts a live ffmpeg source on `mount`: a tone of `frequency` Hz (MP3 128 kbps, or
    /// Ogg/Opus with `title` as its stream's title — Icecast takes no title updates on Ogg
    /// mounts, a source sends them in the stream itself).
    public func startSource(mount: String, opus: Bool = false, frequency: Int = 440, title: String? = nil) throws {
        let codec =
            opus
            ? ["-c:a", "libopus", "-b:a", "96k", "-content_type", "audio/ogg", "-f", "ogg"]
            : ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"]
        let metadata = title.map { ["-metadata", "title=\($0)"] } ?? []
        let errors = directory.appendingPathComponent("source\(mount.replacingOccurrences(of: "/", with: "-")).log")
        let process = try LaunchedProgram(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"),
            [
                "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi",
                "-i", "sine=frequency=\(frequency):sample_rate=\(opus ? 48_000 : 44_100)", "-ac", "2",
            ] + codec + metadata + ["icecast://source:\(sourcePassword)@127.0.0.1:\(port)\(mount)"],
            errors: .file(errors))
        sources[mount] = process
        try waitUntil("a source on \(mount)", timeout: 30, while: process, errors) {
            ((try? ExternalTool.run(["curl", "-s", "http://127.0.0.1:\(self.port)/status-json.xsl"])) ?? "").contains(
                mount)
        }
    }

    /// How a paced source cuts its file into units, each sent when its last sample is live.
    public enum PacedFormat: Sendable {
        /// A CBR MP3 file (no Xing frame, no ID3 tag): frame n (`frameBytes`,
        /// `frameSeconds` long) at t0 + (n + 1) · frameSeconds.
        case mp3(frameBytes: Int, frameSeconds: Double)
        /// An Ogg/Opus file: its header pages at once, then each page at
        /// t0 + (granule position − pre-skip) / 48 000, the end of its audio as decoded.
        case oggOpus
    }

    /// Starts a source on `mount` that sends `file` at real-time pace, unit by unit as
    /// `format` says, over Icecast's SOURCE protocol with Nagle off. Returns t0 on
    /// CLOCK_MONOTONIC (seconds): sample s of the decoded stream was live at
    /// t0 + (s + 1) / (rate · (1 + clockPpm / 10⁶)), so a test knows when every sample was
    /// live. `clockPpm`: the station's encoder on a crystal that far off this machine's.
    public func startPacedSource(mount: String, file: String, format: PacedFormat, clockPpm: Double = 0) throws
        -> Double
    {
        let units: String
        let contentType: String
        switch format {
        case .mp3(let frameBytes, let frameSeconds):
            contentType = "audio/mpeg"
            units = """
                units = [((n + 1) * \(frameSeconds), data[n * \(frameBytes):(n + 1) * \(frameBytes)])
                         for n in range(len(data) // \(frameBytes))]
                """
        case .oggOpus:
            contentType = "audio/ogg"
            units = """
                units, offset, preskip = [], 0, 0
                while offset + 27 <= len(data):
                    segments = data[offset + 26]
                    end = offset + 27 + segments + sum(data[offset + 27:offset + 27 + segments])
                    page = data[offset:end]
                    granule = int.from_bytes(page[6:14], 'little', signed=True)
                    body = page[27 + segments:]
                    if body.startswith(b'OpusHead'): preskip = int.from_bytes(body[10:12], 'little')
                    at = max(granule - preskip, 0) / 48000
                    units.append((at, page))
                    offset = end
                """
        }
        let script = """
            import base64, socket, sys, time
            data = open('\(file)', 'rb').read()
            \(units)
            sock = socket.create_connection(('127.0.0.1', \(port)))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            auth = base64.b64encode(b'source:\(sourcePassword)').decode()
            sock.sendall(('SOURCE \(mount) HTTP/1.0\\r\\nAuthorization: Basic ' + auth +
                          '\\r\\nContent-Type: \(contentType)\\r\\nIce-Public: 0\\r\\n\\r\\n').encode())
            if b'200' not in sock.recv(1024): sys.exit('icecast refused the source')
            t0 = time.monotonic()
            print('%.6f' % t0, flush=True)
            for at, unit in units:
                wait = t0 + at / \(1 + clockPpm / 1e6) - time.monotonic()
                if wait > 0: time.sleep(wait)
                sock.sendall(unit)
            time.sleep(3600)
            """
        let started = directory.appendingPathComponent("paced\(mount.replacingOccurrences(of: "/", with: "-")).txt")
        let process = try LaunchedProgram(command: ["python3", "-c", script], output: .file(started))
        sources[mount] = process
        var line = ""
        try waitUntil("the paced source on \(mount) starting", timeout: 30, while: process) {
            line = (try? String(contentsOf: started, encoding: .utf8)) ?? ""
            return line.hasSuffix("\n")
        }
        guard let t0 = Double(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ExternalTool.Failed(description: "the paced source did not start: '\(line)'")
        }
        return t0
    }

    /// Kills the source on `mount`.
    public func stopSource(mount: String) {
        sources.removeValue(forKey: mount)?.kill()
    }

    /// Drops every listener of `mount` (the admin API's `killclient`), as a network glitch
    /// would: the source keeps sending, so a listener that reconnects at once gets a burst
    /// that overlaps what it already had. Returns how many were dropped.
    @discardableResult
    public func dropListeners(mount: String) throws -> Int {
        let admin = "http://admin:\(adminPassword)@127.0.0.1:\(port)/admin"
        let list = try ExternalTool.run(["curl", "-sf", "\(admin)/listclients?mount=\(mount)"])
        let ids = list.components(separatedBy: "<ID>").dropFirst().compactMap {
            $0.split(separator: "<").first.map(String.init)
        }
        for id in ids {
            try ExternalTool.run(["curl", "-sf", "-o", "/dev/null", "\(admin)/killclient?mount=\(mount)&id=\(id)"])
        }
        return ids.count
    }

    /// Sends a stream event the way a broadcaster would, with `tools/delaybox-broadcast`.
    public func broadcast(_ arguments: [String], mount: String, tool: String) throws {
        try ExternalTool.run(
            [
                tool, "--server", "http://127.0.0.1:\(port)", "--mount", mount,
                "--password", adminPassword,
            ] + arguments)
    }

    /// Sets `mount`'s title to `title` exactly as given, through the admin API — what
    /// anyone with the source or admin password, or between the station and the box, can
    /// send (`broadcast` keeps the convention; this does not).
    public func setTitle(_ title: String, mount: String) throws {
        try ExternalTool.run([
            "curl", "-sf", "-o", "/dev/null", "-G", "-u", "admin:\(adminPassword)",
            "--data-urlencode", "mount=\(mount)", "--data-urlencode", "mode=updinfo",
            "--data-urlencode", "song=\(title)", "http://127.0.0.1:\(port)/admin/metadata",
        ])
    }

    /// Waits until the server's statistics show a title for `mount` that contains `text`:
    /// they follow a metadata update within moments, and `tools/delaybox-broadcast title`
    /// reads the current title there.
    public func waitForTitle(containing text: String, mount: String) throws {
        let stats = "http://admin:\(adminPassword)@127.0.0.1:\(port)/admin/stats"
        try waitUntil("a title containing \(text) on \(mount)", timeout: 10) {
            let xml = (try? ExternalTool.run(["curl", "-sf", stats])) ?? ""
            return xml.components(separatedBy: "<source mount=\"\(mount)\">").dropFirst().first?
                .components(separatedBy: "</source>").first?.contains(text) == true
        }
    }

    /// What the server sends a listener at once when it connects (bytes): the last of the
    /// stream it holds, as a station's server long on air does.
    public static let burstBytes = 65_535

    /// Waits until the server holds a whole burst of `mount` — its statistics (updated every
    /// 5 s) count at least `burstBytes` read from the source: a box connecting then gets the
    /// burst a listener of a station long on air gets. The warm-up of a test on air,
    /// waited for, not slept: a loaded machine's slow source takes longer.
    public func waitForBurst(mount: String, timeout: Double = 30) throws {
        let stats = "http://admin:\(adminPassword)@127.0.0.1:\(port)/admin/stats"
        try waitUntil("a burst's \(Self.burstBytes) bytes read on \(mount)", timeout: timeout, while: sources[mount]) {
            let xml = (try? ExternalTool.run(["curl", "-sf", stats])) ?? ""
            let source = xml.components(separatedBy: "<source mount=\"\(mount)\">").dropFirst().first?
                .components(separatedBy: "</source>").first
            let read = source?.components(separatedBy: "<total_bytes_read>").dropFirst().first?
                .split(separator: "<").first.flatMap { Int($0) }
            return (read ?? 0) >= Self.burstBytes
        }
    }

    private func configuration(logs: String) -> String {
        """
        <icecast>
          <hostname>127.0.0.1</hostname>
          <location>\(identity)</location>
          <limits><clients>20</clients><sources>4</sources><queue-size>524288</queue-size>
            <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
            <burst-on-connect>1</burst-on-connect><burst-size>\(Self.burstBytes)</burst-size></limits>
          <authentication><source-password>\(sourcePassword)</source-password>
            <admin-user>admin</admin-user><admin-password>\(adminPassword)</admin-password></authentication>
          <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
          <paths><basedir>/usr/share/icecast2</basedir><logdir>\(logs)</logdir>
            <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
            <pidfile>\(logs)/icecast.pid</pidfile></paths>
          <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
          <security><chroot>0</chroot><changeowner><user>icecast2</user><group>icecast</group></changeowner></security>
        </icecast>
        """
    }

    /// A program the server needed exited before it was ready; `description` has its last words.
    struct Exited: Error, CustomStringConvertible {
        var description: String
        /// Killed by a signal (a crash), not exited (a port it could not bind).
        var crashed = false
    }

    /// Waits up to `timeout` seconds for `condition`; fails at once, with the end of
    /// `log`, if `process` (the server or a source) exits meanwhile.
    private func waitUntil(
        _ what: String, timeout: Double, while process: LaunchedProgram? = nil, _ log: URL? = nil,
        _ condition: () -> Bool
    ) throws {
        let lastWords = {
            log.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.map { String($0.suffix(600)) } ?? ""
        }
        let held = try Eventually.holds(within: timeout, every: 0.1) {
            if condition() { return true }
            if let process, !process.isRunning {
                let how = process.diedOfSignal ? "died of signal \(process.terminationStatus)" : "exited"
                throw Exited(
                    description: "icecast on port \(port): \(what) — \(process.name) \(how): \(lastWords())",
                    crashed: process.diedOfSignal)
            }
            return false
        }
        guard held else {
            throw ExternalTool.Failed(
                description: "icecast on port \(port): no \(what) after \(Int(timeout)) s. \(lastWords())")
        }
    }
}
