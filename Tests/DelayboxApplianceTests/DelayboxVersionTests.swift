import Foundation
import Testing

@testable import DelayboxApp

/// The version a box reports: its package's, which apt knows, once installed.
@Suite(.timeLimit(.minutes(10))) struct DelayboxVersionTests {
    @Test func theInstalledProgramSaysItsPackagesVersion() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "delaybox-version-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try "0.1.0+git20261125.221500.5ae9f52~deb13\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(
            DelayboxVersion.installed(program: "/usr/bin/delaybox", file: file.path)
                == "0.1.0+git20261125.221500.5ae9f52~deb13")
        #expect(
            DelayboxVersion.installed(program: "/work/main/.build/debug/delaybox", file: file.path) == nil,
            "a build elsewhere is the source's version, whatever is installed")
        try "1.0; reboot\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(DelayboxVersion.installed(program: "/usr/bin/delaybox", file: file.path) == nil, "not a version")
        #expect(DelayboxVersion.string == DelayboxVersion.source, "this test's program is not the installed one")
    }
}
