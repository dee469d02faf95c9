import DelayboxAnswers
import DelayboxApp
import DelayboxTestSupport
import Foundation
import Testing

/// The box on a disk that takes 0.7 s for every fsync (an SD card under load), by fault
/// injection: `tools/faults/slow-fsync.c`, LD_PRELOADed into the built `delaybox run`.
/// Saving the settings and the console's `config save` (two fsyncs each) must not cost the
/// output a single period (issue 44): the files are written on a thread of their own, never
/// on the playout's, whose ring holds 80 ms; nor is a request left for root's helper (`update`). (With `config save` written on the playout
/// thread, this test counted 95 late renders: 1.9 s of silence at the jack.)
@Suite(.serialized, .timeLimit(.minutes(10))) struct SlowDiskTests {
    static let root = CommandLineTests.root

    /// The fault-injection library, built into `directory`.
    static func shim(in directory: URL) throws -> URL {
        let shim = directory.appendingPathComponent("slow-fsync.so")
        let built = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "cc", "-shared", "-fPIC", "-O2", "-o", shim.path,
                Self.root.appendingPathComponent("tools/faults/slow-fsync.c").path, "-ldl",
            ])
        try #require(built.status == 0, "\(built.errors)")
        return shim
    }

    /// A directory whose fsync fails: the rename into it may not survive a power cut, so a
    /// save is not reported done (it was, before: the directory's fsync result was ignored,
    /// and this writer reported generation after generation).
    @Test func aSaveWhoseDirectoryCannotBeSyncedIsAFailure() throws {
        let directory = try ExternalTool.temporaryDirectory("unsyncable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (output, errors) = (directory.appendingPathComponent("output"), directory.appendingPathComponent("errors"))
        let writer = try LaunchedProgram(
            BoxUnderTest.debugBuild(root: Self.root).appendingPathComponent("delaybox-settings-writer"),
            [directory.appendingPathComponent("state.json").path, "1"],
            environment: [
                "LD_PRELOAD": try Self.shim(in: directory).path, "DELAYBOX_SLOW_FSYNC_MS": "0",
                "DELAYBOX_FSYNC_FAIL_DIRECTORIES": "1",
            ], output: .file(output), errors: .file(errors))
        _ = Eventually.holds(within: 10) { !writer.isRunning }
        writer.kill()
        let reported = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(reported.isEmpty, "no save reported durable: \(reported.prefix(100))")
        #expect(said.contains("may not survive a power cut"), "\(said.suffix(500))")
    }

    @Test func aDiskSlowToSyncCostsTheOutputNothing() throws {
        let directory = try ExternalTool.temporaryDirectory("slow-disk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let shim = try Self.shim(in: directory)
        let fsyncs = directory.appendingPathComponent("fsyncs.log")
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "slow-disk",
            environment: [
                "LD_PRELOAD": shim.path, "DELAYBOX_SLOW_FSYNC_MS": "700",
                "DELAYBOX_FSYNC_LOG": fsyncs.path, "RUNTIME_DIRECTORY": directory.path,
            ]
        ) { directory in
            """
            extends: \(Self.root.appendingPathComponent("board-configs/simulated-host.yaml").path)
            audio:
              device: wav:\(directory.appendingPathComponent("out.wav").path)
            defaults:
              delay: 2 s
            """
        }
        func status() -> StatusAnswer? {
            let text = (try? box.ctl(["status", "--json"]).output) ?? ""
            return try? JSONDecoder().decode(StatusAnswer.self, from: Data(text.utf8))
        }
        func saved() -> Int? {
            guard
                let data = FileManager.default.contents(
                    atPath: box.directory.appendingPathComponent("state.json").path),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return nil }
            return (object["settings"] as? [String: Any])?["delayMs"] as? Int
        }
        #expect(Eventually.holds(within: 15) { status()?.state == "playing" }, "\(box.log)")
        for delay in ["2.5", "3"] {
            #expect(try box.ctl(["delay", delay]).status == 0)
            // Saved after 2 s without another change, through two slow fsyncs.
            let wanted = Int(Double(delay)! * 1_000)
            #expect(
                Eventually.holds(within: 15) { saved() == wanted },
                "the state file has \(wanted) ms: \(saved() ?? -1); \(box.log.suffix(600))")
        }
        let synced = { (try? String(contentsOf: fsyncs, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        #expect(
            Eventually.holds(within: 5) { synced() >= 4 },
            "both saves went through the slow disk (file and folder): \(synced()) fsyncs")
        // The console's `config save`: answered once written (1.4 s here), read back from it.
        #expect(try box.ctl(["config", "set", "defaults.delay_step", "200", "ms"]).status == 0)
        let save = try box.ctl(["config", "save"])
        #expect(
            save.status == 0
                && save.output.contains("saved: \(box.directory.appendingPathComponent("config.yaml").path)"),
            "\(save.output)\(save.errors)")
        let step = try box.ctl(["config", "get", "defaults.delay_step"]).output
        #expect(
            step.contains("value: 200 ms")
                && step.contains("from: \(box.directory.appendingPathComponent("config.yaml").path)"), "\(step)")
        #expect(synced() >= 6, "config save went through the slow disk too: \(synced()) fsyncs")
        // `update` leaves root's helper its request through the slow disk as well: answered once
        // it is there. (Written on the playout thread, this cost the output 68 periods.)
        let update = try box.ctl(["update", "1.4.0-1~deb13"])
        #expect(update.status == 0 && update.output.contains("update: asked"), "\(update.output)\(update.errors)")
        let request = try? String(contentsOf: directory.appendingPathComponent("update-request"), encoding: .utf8)
        #expect(request == "1.4.0-1~deb13\n", "the request is there when the answer comes: \(request ?? "none")")
        #expect(synced() >= 8, "the request went through the slow disk: \(synced()) fsyncs")
        let stats = try box.ctl(["stats", "--json"]).output
        let figures = try JSONDecoder().decode(StatsAnswer.self, from: Data(stats.utf8))
        #expect(
            figures.lateRenders == 0 && figures.underruns == 0 && figures.xruns == 0,
            "no period lost to the disk: \(stats)")
    }
}
