import DelayboxTestSupport
import Foundation

/// What a package puts on a board's SD card: its installed size and each program as
/// installed (stripped), read from the .deb itself.
struct PackageFigures {
    /// Installed-Size (MiB).
    var installedMB: Double
    /// `delaybox` and `delayboxctl` as installed (MiB; 0 for a link to the other).
    var programMB: [String: Double]

    init(package: String) throws {
        // Installed-Size is in KiB (Debian Policy 5.6.20).
        let installed = try ExternalTool.run(["dpkg-deb", "-f", package, "Installed-Size"])
        guard let kib = Double(installed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Bench.BenchError("no Installed-Size in \(package)")
        }
        installedMB = kib / 1_024
        // Each program from the package's listing:
        // "-rwxr-xr-x root/root 57920688 2026-11-24 04:09 ./usr/bin/delaybox", or a link:
        // "lrwxrwxrwx root/root 0 2026-11-24 04:09 ./usr/bin/delayboxctl -> delaybox".
        let listing = try ExternalTool.run(["dpkg-deb", "-c", package]).split(separator: "\n")
        programMB = [:]
        for program in ["delaybox", "delayboxctl"] {
            let fields = listing.first {
                $0.hasSuffix(" ./usr/bin/\(program)") || $0.contains(" ./usr/bin/\(program) -> ")
            }?.split(separator: " ")
            guard let bytes = fields.flatMap({ $0.count > 2 ? Double($0[2]) : nil }) else {
                throw Bench.BenchError("no usr/bin/\(program) in \(package)")
            }
            programMB[program] = bytes / 1_048_576
        }
    }

    /// This machine's package (`make bench` builds it in .build/deb): `deb_installed_mb`,
    /// `delaybox_mb`, `delayboxctl_mb`.
    static func print(root: URL) throws {
        let directory = root.appendingPathComponent(".build/deb")
        let names = ["deb_installed_mb", "delaybox_mb", "delayboxctl_mb"]
        let newest = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".deb") }.map { directory.appendingPathComponent($0).path }
            .max { modified($0) < modified($1) }
        guard let newest else {
            Bench.skip(names, because: "no package in \(directory.path): deploy/make-deb.sh --out .build/deb")
            return
        }
        let figures = try PackageFigures(package: newest)
        Swift.print("deb_installed_mb: \(Bench.format(figures.installedMB))")
        Swift.print("delaybox_mb: \(Bench.format(figures.programMB["delaybox"]!))")
        Swift.print("delayboxctl_mb: \(Bench.format(figures.programMB["delayboxctl"]!))")
    }

    private static func modified(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }
}
