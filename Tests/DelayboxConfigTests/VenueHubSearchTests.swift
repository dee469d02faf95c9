import DelayboxMQTT
import Testing

/// Issue 70: the hubs a box hears on its LAN, read from strangers' mDNS answers. The first
/// packet is what Avahi 0.8 (Debian 12) answered this machine's legacy unicast question for
/// a hub's announcement (`VenueHubFiles.announcement`), byte for byte.
@Suite(.timeLimit(.minutes(10))) struct VenueHubSearchTests {
    /// Avahi's answer to question 0x1234: PTR, TXT (`group=pub`, `mqtt=1883`), SRV (port
    /// 80, host `vm.local`), AAAA and A, names compressed.
    static let avahiAnswer = bytes(
        [
            "1234840000010005000000000d5f64656c6179626f782d687562045f746370056c6f63616c00000c0001c00c000c0001",
            "0000000a001b1844656c6179626f782076656e756520707562206f6e20766dc00cc036001000010000000a0014096772",
            "6f75703d707562096d7174743d31383833c036002100010000000a000b00000000005002766dc01fc083001c0001000000",
            "0a0010fd000000000000000000000000000002c083000100010000000a0004c0000202",
        ].joined())

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    @Test func theQuestionIsTheOneAvahiAnswered() {
        // The question this machine sent (python, byte for byte) when Avahi gave the answer above.
        #expect(
            VenueHubSearch.query(id: 0x1234)
                == Self.bytes(
                    "1234000000010000000000000d5f64656c6179626f782d687562045f746370056c6f63616c00000c0001"))
    }

    @Test func avahisAnswerNamesTheHub() {
        #expect(
            VenueHubSearch.hubs(in: Self.avahiAnswer, id: 0x1234, source: "192.0.2.2") == [
                HeardHub(
                    name: "Delaybox venue pub on vm", group: "pub", address: "192.0.2.2", pagePort: 80, brokerPort: 1883
                )
            ])
    }

    /// Many answers: each hub once, however often it answers, and at most 32 of them (anyone
    /// on the LAN may answer, with as many names as a packet holds).
    @Test func eachHubIsHeardOnceAndAtMost32() throws {
        let label = Array("Delaybox venue pub on vm".utf8)
        let at = try #require(
            (0...(Self.avahiAnswer.count - label.count)).first {
                Array(Self.avahiAnswer[$0..<$0 + label.count]) == label
            })
        let answers: [(bytes: [UInt8], source: String)] = (0..<40).map { index in
            var renamed = Self.avahiAnswer
            renamed[at + label.count - 1] = UInt8(ascii: "A") + UInt8(index)
            return (renamed, "192.0.2.\(index + 10)")
        }
        let heard = VenueHubSearch.hubs(in: answers + answers, id: 0x1234)
        #expect(heard.count == VenueHubSearch.largestHeard)
        #expect(Set(heard.map(\.name)).count == heard.count)
        #expect(heard.first?.name == "Delaybox venue pub on vA" && heard.first?.address == "192.0.2.10")
    }

    @Test func anotherQuestionsAnswerIsNotTaken() {
        #expect(VenueHubSearch.hubs(in: Self.avahiAnswer, id: 0x4321, source: "192.0.2.2").isEmpty)
    }

    /// Every prefix of the answer, and the answer with each byte changed, reads without a
    /// trap; a cut answer names the hub only once its PTR, TXT and SRV records are whole (the
    /// addresses after them are not needed).
    @Test func aCutOrChangedAnswerNeverTraps() {
        let whole = VenueHubSearch.hubs(in: Self.avahiAnswer, id: 0x1234, source: "x")
        let serviceEnd = Self.bytes("005002766dc01f")
        let srvEnd =
            (0...(Self.avahiAnswer.count - 7)).first { Array(Self.avahiAnswer[$0..<$0 + 7]) == serviceEnd }! + 7
        for count in 0..<Self.avahiAnswer.count {
            let heard = VenueHubSearch.hubs(in: Array(Self.avahiAnswer.prefix(count)), id: 0x1234, source: "x")
            #expect(heard == (count >= srvEnd ? whole : []), "cut at \(count)")
        }
        for index in Self.avahiAnswer.indices {
            for value: UInt8 in [0x00, 0x3f, 0xc0, 0xff] {
                var changed = Self.avahiAnswer
                changed[index] = value
                for hub in VenueHubSearch.hubs(in: changed, id: 0x1234, source: "x") {
                    #expect((1...65535).contains(hub.pagePort) && (1...65535).contains(hub.brokerPort))
                }
            }
        }
    }

    /// A name that points at itself, or forward, is not followed.
    @Test func aCompressionLoopIsRefused() {
        var looped = Self.avahiAnswer
        // The PTR answer's owner (at 42) is a pointer to 12; made to point at itself.
        #expect(looped[42] == 0xc0 && looped[43] == 0x0c)
        looped[43] = 42
        #expect(VenueHubSearch.hubs(in: looped, id: 0x1234, source: "x").isEmpty)
    }

    /// A group that is not a venue's name (it would become a topic and a file's line) is
    /// left out, as is a broker port out of range.
    @Test(arguments: [
        TextRecord(old: "group=pub", new: "group=p/b"), TextRecord(old: "mqtt=1883", new: "mqtt=9999"),
    ])
    func aHubWhoseTextDoesNotReadIsLeftOut(change: TextRecord) {
        var text = Self.avahiAnswer
        let old = Array(change.old.utf8)
        let at = (0...(text.count - old.count)).first { Array(text[$0..<$0 + old.count]) == old }!
        text.replaceSubrange(at..<at + old.count, with: Array(change.new.utf8))
        let hubs = VenueHubSearch.hubs(in: text, id: 0x1234, source: "192.0.2.2")
        #expect(change.new == "mqtt=9999" ? hubs.map(\.brokerPort) == [9999] : hubs.isEmpty)
    }

    struct TextRecord: Sendable, CustomTestStringConvertible {
        var old: String
        var new: String
        var testDescription: String { new }
    }
}
