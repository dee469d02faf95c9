import DelayboxTestSupport
import Foundation
import Testing

/// The tests' way to run a program: both of its outputs whole, whichever it fills first.
@Suite(.timeLimit(.minutes(10))) struct ExternalToolTests {
    /// 256 KiB on stderr before a word on stdout: reading stdout to its end first waited
    /// forever on a child blocked writing to the full stderr pipe (the old code hung here
    /// until killed).
    @Test func aChildThatFillsStderrFirstIsReadWhole() throws {
        let outcome = try ExternalTool.execute(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "head -c 262144 /dev/zero | tr '\\0' e >&2; echo done; cat"],
            input: String(repeating: "i", count: 262_144))
        #expect(outcome.status == 0)
        #expect(outcome.errors.count == 262_144 && outcome.errors.allSatisfy { $0 == "e" })
        #expect(outcome.output == "done\n" + String(repeating: "i", count: 262_144))
    }
}
