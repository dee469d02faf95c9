import Foundation

/// Where the Debian 13 arm64 build a Raspberry Pi installs lies in a checkout
/// (tools/arm64/check.sh and `make deb ARCH=arm64` make it): for its tests and benchmark.
public struct Arm64Build: Sendable {
    /// The project's root (the directory that holds Package.swift).
    public let root: URL

    public init(root: URL) { self.root = root }

    /// The release programs, cross-compiled with the static Swift runtime.
    public var binaries: URL { root.appendingPathComponent(".build/debian13-arm64/aarch64-unknown-linux-gnu/release") }

    /// The arm64 `delaybox`.
    public var delaybox: URL { binaries.appendingPathComponent("delaybox") }

    /// Runs arm64 programs here under user-mode emulation.
    public var runner: URL { root.appendingPathComponent("tools/arm64-run") }

    /// The package tools/arm64/check.sh made, if any.
    public var package: URL? {
        let directory = root.appendingPathComponent(".build/arm64/deb")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.first { $0.hasSuffix("_arm64.deb") }.map { directory.appendingPathComponent($0) }
    }

    /// Whether the package and programs are there and this machine can run them.
    public var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/qemu-aarch64-static") && package != nil
            && FileManager.default.isExecutableFile(atPath: delaybox.path)
    }
}
