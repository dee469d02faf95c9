import DelayboxState
import DelayboxTestSupport
import Foundation
import Testing

/// Issue 66: the hotspot's password is the box's own — random, made at its first start,
/// kept readable by the service alone — not derived from anything another user or another
/// card can read.
@Suite(.timeLimit(.minutes(10))) struct HotspotPasswordFileTests {
    func file(_ name: String) throws -> HotspotPasswordFile {
        HotspotPasswordFile(
            path: try ExternalTool.temporaryDirectory(name).appendingPathComponent("hotspot-password").path)
    }

    @Test func theFirstStartMakesARandomPasswordKeptForTheServiceAlone() throws {
        let one = try file("hotspot-one")
        #expect(one.read() == nil)
        let made = try one.readOrMake()
        #expect(made.count == HotspotPasswordFile.digits && made.allSatisfy(\.isNumber))
        #expect(try one.readOrMake() == made, "the same at every start: it is on the label")
        let mode = try FileManager.default.attributesOfItem(atPath: one.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Two boxes (two cards flashed from one image) make two passwords.
        let others = try (0..<8).map { try file("hotspot-\($0)").readOrMake() }
        #expect(Set(others + [made]).count == 9)
    }

    @Test func aChangedPasswordIsKeptAndNonsenseIsNot() throws {
        let kept = try file("hotspot-change")
        try kept.store("club lounge 7")
        #expect(kept.read() == "club lounge 7")
        #expect(throws: (any Error).self) { try kept.store("short") }
        #expect(throws: (any Error).self) { try kept.store("") }
        #expect(kept.read() == "club lounge 7")
        // A file that holds no Wi-Fi password is replaced by a new one, not used.
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: kept.path))
        #expect(try kept.readOrMake().count == HotspotPasswordFile.digits)
    }
}
