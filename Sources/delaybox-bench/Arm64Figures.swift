import DelayboxTestSupport
import Foundation

/// The Raspberry Pi build's figures (`delaybox-bench arm64`): the Debian 13 arm64
/// package's installed size, and the one-hour acceptance simulation run by the arm64
/// `delaybox` under user-mode emulation (tools/arm64-run) — what a board computes, not how
/// fast (emulation says nothing of a Pi's speed). `make bench` builds the package first.
enum Arm64Figures {
    /// The build in the project this program was built in: the nearest directory above
    /// it (under .build) that holds Package.swift.
    static let build: Arm64Build = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.deletingLastPathComponent()
        while directory.path != "/", !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return Arm64Build(root: directory)
    }()

    static func print() throws {
        let names = ["arm64_release_mb", "arm64_delaybox_mb", "arm64_delayboxctl_mb", "arm64_sim_1h_lost_ms", "arm64_sim_1h_gaps_ms", "arm64_sim_1h_underruns"]
        guard let package = build.package?.path, build.isAvailable else {
            for name in names { Swift.print("\(name): skipped (no arm64 build: tools/arm64/check.sh or make deb ARCH=arm64)") }
            return
        }
        // Installed-Size is in KiB (Debian Policy 5.6.20).
        let installed = try ExternalTool.run(["dpkg-deb", "-f", package, "Installed-Size"])
        guard let kib = Double(installed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Bench.BenchError("no Installed-Size in \(package)")
        }
        Swift.print("arm64_release_mb: \(Bench.format(kib / 1_024))")
        // Each program as the board installs it (stripped), from the package's listing:
        // "-rwxr-xr-x root/root 57920688 2026-11-24 04:09 ./usr/bin/delaybox".
        let listing = try ExternalTool.run(["dpkg-deb", "-c", package]).split(separator: "\n")
        for program in ["delaybox", "delayboxctl"] {
            let fields = listing.first { $0.hasSuffix(" ./usr/bin/\(program)") }?.split(separator: " ")
            guard let bytes = fields.flatMap({ $0.count > 2 ? Double($0[2]) : nil }) else {
                throw Bench.BenchError("no usr/bin/\(program) in \(package)")
            }
            Swift.print("arm64_\(program)_mb: \(Bench.format(bytes / 1_048_576))")
        }
        let output = try ExternalTool.run([build.runner.path, build.delaybox.path] + AcceptanceSimulation.arguments)
        guard let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let lost = report["lost_ms"] as? Double, let gaps = report["gaps_ms"] as? Double, let underruns = report["underruns"] as? Int
        else { throw Bench.BenchError("arm64 simulate printed no report: \(output.prefix(200))") }
        Swift.print("arm64_sim_1h_lost_ms: \(Bench.format(lost))")
        Swift.print("arm64_sim_1h_gaps_ms: \(Bench.format(gaps))")
        Swift.print("arm64_sim_1h_underruns: \(underruns)")
    }
}
