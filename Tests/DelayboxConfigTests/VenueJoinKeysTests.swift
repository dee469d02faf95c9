import DelayboxNetwork
import DelayboxUnits
import Testing

/// Issue 70: a hub hands a box's join code out by a short key its owner types on the box's
/// page: once, for 15 minutes, and five wrong keys void them all. Virtual time.
@Suite(.timeLimit(.minutes(10))) struct VenueJoinKeysTests {
    let screen2 = VenueJoinCode(
        hub: "192.168.1.10", port: 1883, group: "pub", box: "screen2", password: "Qx7-p2Vn_9rT4kLm")
    let screen3 = VenueJoinCode(
        hub: "192.168.1.10", port: 1883, group: "pub", box: "screen3", password: "Zx7-p2Vn_9rT4kLm")
    let start = Instant(nanoseconds: 0)

    @Test func aKeyGivesItsCodeOnceAndReadsAsShown() throws {
        var keys = VenueJoinKeys()
        let key = keys.mint(for: screen2, now: start)
        #expect(VenueJoinKeys.isKey(key) && key.count == 8)
        let typed = VenueJoinKeys.shown(key).lowercased()
        #expect(VenueJoinKeys.isKey(typed))
        #expect(try keys.handOver(typed, now: start + .seconds(60)).get() == screen2)
        #expect((try? keys.handOver(key, now: start + .seconds(61)).get()) == nil)
    }

    @Test func aKeyLastsFifteenMinutes() {
        var keys = VenueJoinKeys()
        let key = keys.mint(for: screen2, now: start)
        #expect((try? keys.handOver(key, now: start + VenueJoinKeys.lifetime).get()) == nil)
    }

    @Test func aBoxLetInAgainHasOnlyItsNewKey() throws {
        var keys = VenueJoinKeys()
        let first = keys.mint(for: screen2, now: start)
        let second = keys.mint(for: screen2, now: start + .seconds(1))
        let other = keys.mint(for: screen3, now: start + .seconds(2))
        if first != second { #expect((try? keys.handOver(first, now: start + .seconds(3)).get()) == nil) }
        #expect(try keys.handOver(second, now: start + .seconds(4)).get() == screen2)
        #expect(try keys.handOver(other, now: start + .seconds(5)).get() == screen3)
    }

    @Test func fiveWrongKeysVoidEveryKey() {
        var keys = VenueJoinKeys()
        let key = keys.mint(for: screen2, now: start)
        let wrong = key == "AAAAAAAA" ? "BBBBBBBB" : "AAAAAAAA"
        for attempt in 1...VenueJoinKeys.wrongAllowed {
            guard case .failure(let problem) = keys.handOver(wrong, now: start) else {
                Issue.record("a wrong key was taken")
                return
            }
            #expect(problem.description.contains("every key is void") == (attempt == VenueJoinKeys.wrongAllowed))
        }
        #expect((try? keys.handOver(key, now: start).get()) == nil)
    }

    @Test(arguments: ["ABCD-EFG", "ABCD-EFGHJ", "ABCD-EFG0", "ABCD EFG1", "ÄBCD-EFGH", ""])
    func whatIsNotAKey(text: String) {
        #expect(!VenueJoinKeys.isKey(text))
    }
}
