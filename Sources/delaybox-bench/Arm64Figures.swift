import DelayboxTestSupport
import Foundation

/// The Raspberry Pi build's figures (`delaybox-bench arm64`): the Debian 13 arm64
/// package's installed size, and the one-hour acceptance simulation run by the arm64
/// `delaybox` under user-mode emulation (tools/arm64-run) — what a board computes, not how
/// fast (emulation says nothing of a Pi's speed). `make bench` builds the package first.
enum Arm64Figures {
    /// The project's root: the nearest directory above this program (built under its
    /// .build) that holds Package.swift.
    static let root: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.deletingLastPathComponent()
        while directory.path != "/", !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    static func print() throws {
        let names = ["arm64_release_mb", "arm64_sim_1h_lost_ms", "arm64_sim_1h_gaps_ms", "arm64_sim_1h_underruns"]
        let directory = root.appendingPathComponent(".build/arm64/deb")
        let package = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .first { $0.hasSuffix("_arm64.deb") }.map { directory.appendingPathComponent($0).path }
        let delaybox = root.appendingPathComponent(".build/debian13-arm64/aarch64-unknown-linux-gnu/release/delaybox").path
        guard let package, FileManager.default.isExecutableFile(atPath: delaybox) else {
            for name in names { Swift.print("\(name): skipped (no arm64 build: tools/arm64/check.sh or make deb ARCH=arm64)") }
            return
        }
        // Installed-Size is in KiB (Debian Policy 5.6.20).
        let installed = try ExternalTool.run(["dpkg-deb", "-f", package, "Installed-Size"])
        guard let kib = Double(installed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Bench.BenchError("no Installed-Size in \(package)")
        }
        Swift.print("arm64_release_mb: \(Bench.format(kib / 1_024))")
        let output = try ExternalTool.run([root.appendingPathComponent("tools/arm64-run").path, delaybox, "simulate", "--duration", "3600",
                                           "--delay", "60", "--outage", "600:3", "--outage", "1200:10", "--json"])
        guard let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let lost = report["lost_ms"] as? Double, let gaps = report["gaps_ms"] as? Double, let underruns = report["underruns"] as? Int
        else { throw Bench.BenchError("arm64 simulate printed no report: \(output.prefix(200))") }
        Swift.print("arm64_sim_1h_lost_ms: \(Bench.format(lost))")
        Swift.print("arm64_sim_1h_gaps_ms: \(Bench.format(gaps))")
        Swift.print("arm64_sim_1h_underruns: \(underruns)")
    }
}
