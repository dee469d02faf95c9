import DelayboxNetwork
import Testing

@testable import DelayboxFiles

/// Issue 70: anyone on the LAN may answer a joining box as its hub; what the answer says
/// reaches the owner's console and page as one line of at most 200 printable characters.
@Suite(.timeLimit(.minutes(10))) struct VenueClaimAnswerTests {
    static let hub = VenueHubAddress(host: "192.0.2.7", port: 80)

    @Test func aStrangersRefusalIsOneShortPrintableLine() {
        // JSON's escapes: ESC, CR, LF, DEL among the words, and far too many of them.
        let said: String = #"no\u001b[2J such\r\nkey\u007f"# + String(repeating: "x", count: 500)
        let body: [UInt8] = Array(#"{"error":""#.utf8) + Array(said.utf8) + Array(#""}"#.utf8)
        guard case .failure(let problem) = VenueErrand.claimed(status: 403, body: body, from: Self.hub) else {
            Issue.record("a refusal was taken for a code")
            return
        }
        let words = problem.description
        #expect(words.hasPrefix("the hub at 192.0.2.7:80 gave no join code: no[2J suchkey"), "\(words)")
        #expect(words.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f })
        #expect(words.count == "the hub at 192.0.2.7:80 gave no join code: ".count + 200)
    }

    @Test func anAnswerThatIsNoJSONSaysItsStatus() {
        let result = VenueErrand.claimed(status: 502, body: Array("<html>".utf8), from: Self.hub)
        guard case .failure(let problem) = result else {
            Issue.record("garbage was taken for a code")
            return
        }
        #expect(problem.description == "the hub at 192.0.2.7:80 gave no join code: it answered 502")
    }
}
