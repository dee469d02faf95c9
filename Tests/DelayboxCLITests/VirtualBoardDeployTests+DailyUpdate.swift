import DelayboxTestSupport
import Foundation
import Testing

extension VirtualBoardDeployTests {
    /// Issue 57: the daily timer's own path. A newer release appears in the repository the
    /// box follows; `delaybox-autoupdate.service` (what `delaybox-autoupdate.timer` starts
    /// each night: `release-check --auto`) installs it from the signed repository while the
    /// box plays, and its restart waits for the final whistle — a pause here (the update
    /// window is `none`) — then the new release is checked and kept.
    ///
    /// First, with a source that does not answer and nothing newer: the box says it could
    /// not look (apt-get update only warns of it), not "up to date".
    func theDailyUpdateInstallsTheNextReleaseWhenTheBoxIsQuiet(
        _ login: Login, board: VirtualBoard.Board, good: URL, directory: URL, repository: URL, key: URL,
        server: StaticHTTPServer, lap: (String) -> Void
    ) throws {
        // The repository's server is used from the board only: held to the end here.
        try withExtendedLifetime(server) {
            try dailyUpdate(
                login, board: board, good: good, directory: directory, repository: repository, key: key,
                url: server.url("").trimmingCharacters(in: CharacterSet(charactersIn: "/")), lap: lap)
        }
    }

    private func dailyUpdate(
        _ login: Login, board: VirtualBoard.Board, good: URL, directory: URL, repository: URL, key: URL,
        url: String, lap: (String) -> Void
    ) throws {
        let gone = "/etc/apt/sources.list.d/gone.sources"
        _ = try login.run(
            "printf 'Types: deb\\nURIs: http://127.0.0.1:9/\\nSuites: bookworm\\nComponents: main\\n' > \(gone); "
                + "systemctl start delaybox-autoupdate.service; systemctl is-failed delaybox-autoupdate.service || true"
        )
        // The unit fails (systemctl --failed lists it) and the box's status says why.
        #expect(
            login.releaseState().contains("update failed: a source did not answer: "),
            "\(login.releaseState())")
        _ = try login.run("rm \(gone)")
        let release = board.release
        let newest = try Self.variant(
            of: good, in: directory, named: "newest", version: ".2",
            file: "delaybox_newest~deb\(release)_\(board.arch).deb")
        let newestVersion = try ExternalTool.run(["dpkg-deb", "-f", newest.path, "Version"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let made = try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/make-repo.sh"),
            ["--key", key.path, "--url", url, "--out", repository.path, newest.path])
        #expect(made.status == 0, "\(made.errors)")
        // Playing a programme (the install before left a 300 s delay to record: back to 2 s).
        let programme = Eventually.holds(within: Double(board.allowing(30)), every: 1) {
            ((try? login.run("delayboxctl delay 2 >/dev/null; delayboxctl resume >/dev/null; delayboxctl status")) ?? "")
                .contains("state: playing")
        }
        #expect(programme, "\((try? login.run("delayboxctl status")) ?? "")")
        let playing = try login.run("systemctl show -p MainPID --value delaybox.service")
        _ = try login.run("systemctl start --no-block delaybox-autoupdate.service")
        let waiting = Eventually.value(within: Double(board.allowing(180)), every: 1) { () -> String? in
            let state = login.releaseState()
            return state.contains("starts once the box is quiet") ? state : nil
        }
        lap("the daily update installed the next release; its restart waits")
        let log = { (try? login.run("journalctl -u delaybox-autoupdate --no-pager -o cat | tail -8")) ?? "" }
        #expect(waiting?.contains(newestVersion) == true, "\(login.releaseState())\n\(log())")
        #expect(
            try login.run("systemctl show -p MainPID --value delaybox.service") == playing,
            "the box plays on, the process it had")
        #expect(try login.run("delayboxctl pause").contains("paused"))
        let kept = Eventually.holds(within: Double(board.allowing(180)), every: 1) {
            let state = login.releaseState()
            return state.contains("\(newestVersion) playing") && state.hasSuffix(newestVersion)
        }
        lap("paused: the next release restarted, checked and kept")
        #expect(kept, "\(login.releaseState())\n\(log())")
    }
}
