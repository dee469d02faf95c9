import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The Debian 13 arm64 build a Raspberry Pi installs, in this checkout (`make test` makes
/// it with tools/arm64/check.sh, as `make deb ARCH=arm64` does).
private let build = Arm64Build(root: CommandLineTests.root)

/// The shipped Raspberry Pi boards' configs (board-configs/pi*.yaml).
private let piBoards: [String] = {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: build.root.appendingPathComponent("board-configs").path))
        ?? []
    return names.filter { $0.hasPrefix("pi") && $0.hasSuffix(".yaml") }.sorted()
}()

/// The arm64 programs, checked as shipped and run under user-mode emulation
/// (tools/arm64-run, qemu-aarch64-static) beside this machine's build. In `make test` as
/// root, which builds them, a missing build fails instead of skipping (a plain `swift test`
/// skips it).
@Suite(
    .enabled(
        if: build.isAvailable || (getuid() == 0 && VirtualBoard.asked),
        "needs the arm64 package (make test builds it: tools/arm64/check.sh)"),
    .timeLimit(.minutes(10)))
struct Arm64BuildTests {
    func arm64Delaybox(_ arguments: [String]) throws -> ExternalTool.Outcome {
        try #require(build.isAvailable, "the arm64 package and programs (tools/arm64/check.sh)")
        return try ExternalTool.execute(build.runner, [build.delaybox.path] + arguments)
    }

    /// What a Pi gets: aarch64 programs that need no Swift runtime on the board, and Depends
    /// on Debian 13's own library packages (dpkg-shlibdeps against the arm64 libraries).
    @Test func thePackageHoldsAarch64ProgramsThatCarryTheirSwiftRuntime() throws {
        let package = try #require(build.package, "the arm64 package (tools/arm64/check.sh)")
        let directory = try ExternalTool.temporaryDirectory("arm64-deb")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExternalTool.run(["dpkg-deb", "-x", package.path, directory.path])
        for program in ["delaybox", "delayboxctl"] {
            let path = directory.appendingPathComponent("usr/bin/\(program)").path
            let header = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 20)
            // ELF e_machine (bytes 18–19, little-endian): 183 is EM_AARCH64.
            #expect(
                header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]) && Int(header[18]) | Int(header[19]) << 8 == 183,
                "\(program) is an aarch64 ELF program")
            let needed = try ExternalTool.run(["readelf", "-d", path]).split(separator: "\n").filter {
                $0.contains("(NEEDED)")
            }
            #expect(
                !needed.isEmpty
                    && !needed.contains {
                        $0.contains("libswift") || $0.contains("libFoundation") || $0.contains("libdispatch")
                    },
                "\(program) links no shared Swift runtime: \(needed)")
        }
        let fields = try ExternalTool.run(["dpkg-deb", "-f", package.path, "Architecture", "Version", "Depends"])
        #expect(fields.contains("Architecture: arm64") && fields.contains("~deb13"), "\(fields)")
        for library in ["libgnutls30t64", "libasound2t64", "libgpiod3"] {
            #expect(fields.contains(library), "Depends names Debian 13's \(library): \(fields)")
        }
        #expect(!fields.contains("libav"), "the box's own FFmpeg is linked in: \(fields)")
    }

    /// The one-hour acceptance run (two outages at a 60 s delay) computes the same on the
    /// board's CPU as here: the outages' audio lost, to within one packet, and nothing else.
    @Test func theOneHourAcceptanceSimulationLosesWhatThisMachinesBuildLoses() throws {
        let arguments = AcceptanceSimulation.arguments
        let arm64 = try arm64Delaybox(arguments)
        let native = try ExternalTool.execute(BuiltProgram.url("delaybox", root: build.root), arguments)
        #expect(arm64.status == 0 && native.status == 0, "\(arm64.errors)\(native.errors)")
        let board = try #require(try JSONSerialization.jsonObject(with: Data(arm64.output.utf8)) as? [String: Any])
        let here = try #require(try JSONSerialization.jsonObject(with: Data(native.output.utf8)) as? [String: Any])
        let lost = try #require(board["lost_ms"] as? Double)
        #expect(
            abs(lost - (here["lost_ms"] as? Double ?? 0)) <= 24 && abs(lost - 6_000) <= 24,
            "arm64 \(board), amd64 \(here)")
        #expect(board["gaps_ms"] as? Double == 0)
        #expect(board["underruns"] as? Int == 0)
        #expect((board["delay_error_ms_p99"] as? Double ?? 99) < 1)
        #expect((board["events"] as? [Any])?.count == (here["events"] as? [Any])?.count)
    }

    /// Every shipped Pi board's config passes the arm64 program's own check, as shipped.
    @Test(arguments: piBoards)
    func aShippedPiBoardConfigChecksOutOnArm64(_ board: String) throws {
        let result = try arm64Delaybox([
            "check-config", build.root.appendingPathComponent("board-configs/\(board)").path,
        ])
        #expect(result.status == 0 && result.output.contains("OK: "), "\(board): \(result.output)\(result.errors)")
    }
}
