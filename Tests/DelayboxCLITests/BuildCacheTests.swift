import DelayboxTestSupport
import Foundation
import Testing

/// tools/cache.sh, which keeps the build roots and FFmpeg builds once per machine for every
/// clone: driven here with two clones' directories and a cache of their own.
@Suite(.timeLimit(.minutes(10))) struct BuildCacheTests {
    /// Runs `script` (bash, with tools/cache.sh sourced, in a scratch directory holding
    /// clone-a/ and clone-b/ and the cache in cache/) and returns what it printed.
    func shell(_ script: String, in directory: URL) throws -> String {
        let outcome = try ExternalTool.execute(
            URL(fileURLWithPath: "/bin/bash"),
            [
                "-euo", "pipefail", "-c", "cd \"$0\"; . \"$1\"; \(script)", directory.path,
                CommandLineTests.root.appendingPathComponent("tools/cache.sh").path,
            ],
            environment: ["DELAYBOX_CACHE": directory.appendingPathComponent("cache").path])
        #expect(outcome.status == 0, "\(script)\n\(outcome.output)\(outcome.errors)")
        return outcome.output
    }

    /// What one clone makes, another finds made: the second clone's directory becomes a link
    /// to the same entry, which holds what the first made.
    @Test func whatOneCloneMadeAnotherFindsMade() throws {
        let directory = try ExternalTool.temporaryDirectory("cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try shell(
            """
            cache_use clone-a/root r v1 && echo "a found it"
            mkdir -p clone-a/root && echo made-by-a > clone-a/root/file
            cache_keep clone-a/root r v1
            cache_use clone-b/root r v1 && echo "b found it"
            cat clone-b/root/file
            [ "$(readlink clone-a/root)" = "$(readlink clone-b/root)" ] && echo "one entry"
            """, in: directory)
        #expect(output == "b found it\nmade-by-a\none entry\n", "\(output)")
    }

    /// A clone at another commit (another stamp) builds its own, and removing its old link
    /// never reaches into the entry the other clone still uses.
    @Test func anotherStampIsBuiltAnewAndTheOldEntryIsLeftAlone() throws {
        let directory = try ExternalTool.temporaryDirectory("cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try shell(
            """
            mkdir -p clone-a/root && echo v1 > clone-a/root/file && cache_keep clone-a/root r v1
            cache_use clone-b/root r v1
            cache_use clone-b/root r v2 || echo "b builds v2"
            [ -e clone-b/root ] || echo "b's link to v1 is gone"
            cat clone-a/root/file
            mkdir -p clone-b/root && echo v2 > clone-b/root/file && cache_keep clone-b/root r v2
            cat clone-b/root/file
            ls cache | wc -l
            """, in: directory)
        #expect(output == "b builds v2\nb's link to v1 is gone\nv1\nv2\n2\n", "\(output)")
    }

    /// Two clones that made the same at once: the first kept stays, the second's own goes,
    /// and both link to the one kept.
    @Test func twoClonesKeepingTheSameShareTheFirst() throws {
        let directory = try ExternalTool.temporaryDirectory("cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try shell(
            """
            mkdir -p clone-a/root clone-b/root
            echo a > clone-a/root/file; echo b > clone-b/root/file
            cache_keep clone-a/root r v1
            cache_keep clone-b/root r v1
            cat clone-a/root/file clone-b/root/file
            """, in: directory)
        #expect(output == "a\na\n", "\(output)")
    }

    /// DELAYBOX_CACHE= (empty): nothing is cached, the build stays in the clone.
    @Test func anEmptyCacheSettingKeepsBuildsInTheClone() throws {
        let directory = try ExternalTool.temporaryDirectory("cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try shell(
            """
            CACHE=
            mkdir -p clone-a/root && cache_keep clone-a/root r v1
            [ -L clone-a/root ] || echo "in place"
            cache_use clone-b/root r v1 || echo "b builds"
            """, in: directory)
        #expect(output == "in place\nb builds\n", "\(output)")
    }
}
