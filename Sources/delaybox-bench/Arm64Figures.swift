import DelayboxSimulation
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
        while directory.path != "/",
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return Arm64Build(root: directory)
    }()

    static func print() throws {
        let names = [
            "arm64_release_mb", "arm64_delaybox_mb", "arm64_delayboxctl_mb", "board_new_packages",
            "board_new_packages_mb",
            "board_new_packages_with_recommends", "board_new_packages_mb_with_recommends",
            "board_new_packages_with_debian_ffmpeg", "board_new_packages_mb_with_debian_ffmpeg",
            "arm64_sim_1h_lost_ms", "arm64_sim_1h_gaps_ms", "arm64_sim_1h_underruns",
        ]
        guard let package = build.package?.path, build.isAvailable else {
            Bench.skip(names, because: "no arm64 build: tools/arm64/check.sh or make deb ARCH=arm64")
            return
        }
        let figures = try PackageFigures(package: package)
        Swift.print("arm64_release_mb: \(Bench.format(figures.installedMB))")
        Swift.print("arm64_delaybox_mb: \(Bench.format(figures.programMB["delaybox"]!))")
        Swift.print("arm64_delayboxctl_mb: \(Bench.format(figures.programMB["delayboxctl"]!))")
        try printNewPackages(package: package)
        let output = try ExternalTool.run([build.runner.path, build.delaybox.path] + AcceptanceSimulation.arguments)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let report = try? decoder.decode(SimulationReport.self, from: Data(output.utf8)) else {
            throw Bench.BenchError("arm64 simulate printed no report: \(output.prefix(200))")
        }
        Swift.print("arm64_sim_1h_lost_ms: \(Bench.format(report.lostMs))")
        Swift.print("arm64_sim_1h_gaps_ms: \(Bench.format(report.gapsMs))")
        Swift.print("arm64_sim_1h_underruns: \(report.underruns)")
    }

    /// `board_new_packages`, `board_new_packages_mb`: what apt adds installing the package on
    /// a Debian 13 arm64 base system (tools/board-new-packages.sh) for its Depends; with its
    /// Recommends too (espeak-ng, alsa-utils: apt's default); and what the Depends added when
    /// the package linked Debian's FFmpeg (its four libraries installed with it): issue 40.
    static func printNewPackages(package: String) throws {
        let script = build.root.appendingPathComponent("tools/board-new-packages.sh").path
        func added(_ arguments: [String]) throws -> (count: Int, mb: Double) {
            let fields = try ExternalTool.run([script] + arguments).split(separator: " ")
            guard fields.count == 2, let count = Int(fields[0]),
                let mb = Double(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                throw Bench.BenchError("tools/board-new-packages.sh printed \(fields)")
            }
            return (count, mb)
        }
        let own = try added(["--no-recommends", package])
        let recommended = try added([package])
        let system = try added([
            "--no-recommends", package, "libavformat61", "libavcodec61", "libswresample5", "libavutil59",
        ])
        Swift.print("board_new_packages: \(own.count)")
        Swift.print("board_new_packages_mb: \(Bench.format(own.mb))")
        Swift.print("board_new_packages_with_recommends: \(recommended.count)")
        Swift.print("board_new_packages_mb_with_recommends: \(Bench.format(recommended.mb))")
        Swift.print("board_new_packages_with_debian_ffmpeg: \(system.count)")
        Swift.print("board_new_packages_mb_with_debian_ffmpeg: \(Bench.format(system.mb))")
    }
}
