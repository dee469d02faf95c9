import DelayboxTestSupport
import Foundation
import Testing

/// A browser script of tools/browser (Debian's chromium driven by Playwright, in the venv
/// deploy/setup-host.sh makes) run against a box's page; its screenshots go to out/web/.
enum PageScript {
    static let root = CommandLineTests.root

    /// The venv's Python; the test requires it (a host set up without Playwright says so).
    static func python() throws -> URL {
        let python = root.appendingPathComponent(".build/browser-venv/bin/python")
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path), "no Playwright: run deploy/setup-host.sh")
        return python
    }

    /// Runs tools/browser/`script` with `arguments` and `--out` the screenshots' directory.
    static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ExternalTool.Outcome
    {
        let screenshots = root.appendingPathComponent("out/web")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        return try ExternalTool.execute(
            try python(),
            [root.appendingPathComponent("tools/browser/\(script)").path] + arguments + ["--out", screenshots.path],
            environment: environment)
    }

    /// Whether the screenshot `name` was taken.
    static func screenshot(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("out/web/\(name).png").path)
    }

    /// The simulated host's board with its page on `port`, playing into a WAV file in the
    /// box's directory, the delay 2 s.
    static func board(port: Int) -> (URL) -> String {
        { directory in
            """
            extends: \(root.appendingPathComponent("board-configs/simulated-host.yaml").path)
            audio:
              device: wav:\(directory.appendingPathComponent("out.wav").path)
            defaults:
              delay: 2 s
            web:
              port: \(port)
            """
        }
    }
}
