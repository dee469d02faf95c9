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
            Bench.skip(names, because: "no arm64 build: tools/arm64/check.sh or make deb ARCH=arm64")
            return
        }
        let figures = try PackageFigures(package: package)
        Swift.print("arm64_release_mb: \(Bench.format(figures.installedMB))")
        Swift.print("arm64_delaybox_mb: \(Bench.format(figures.programMB["delaybox"]!))")
        Swift.print("arm64_delayboxctl_mb: \(Bench.format(figures.programMB["delayboxctl"]!))")
        let output = try ExternalTool.run([build.runner.path, build.delaybox.path] + AcceptanceSimulation.arguments)
        guard let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let lost = report["lost_ms"] as? Double, let gaps = report["gaps_ms"] as? Double, let underruns = report["underruns"] as? Int
        else { throw Bench.BenchError("arm64 simulate printed no report: \(output.prefix(200))") }
        Swift.print("arm64_sim_1h_lost_ms: \(Bench.format(lost))")
        Swift.print("arm64_sim_1h_gaps_ms: \(Bench.format(gaps))")
        Swift.print("arm64_sim_1h_underruns: \(underruns)")
    }
}
