import DelayboxConsole
import DelayboxNetwork
import Testing

/// Issue 70: a venue set up from the page — the words read, a join code checked before
/// anything is asked, and the credentials' commands the page's owner's or the box's only.
@Suite(.timeLimit(.minutes(10))) struct VenueCommandTests {
    let code = VenueJoinCode(
        hub: "192.168.1.10", port: 1883, group: "pub", box: "screen2", password: "Kq7mZ2xP9rT4wLn8Hc3vBy6d")

    func parse(_ line: String) -> ConsoleRequest.Action? { (try? ConsoleLanguage.parse(line)?.get())?.action }

    func error(_ line: String) -> String? {
        guard case .failure(let error)? = ConsoleLanguage.parse(line) else { return nil }
        return error.description
    }

    @Test func theWordsAreRead() {
        #expect(parse("venue") == .venue)
        #expect(parse("venue hub pub-east") == .venueServe(group: "pub-east"))
        #expect(parse("venue add screen_2") == .venueAdmit(box: "screen_2"))
        #expect(parse("venue join \(code.text)") == .venueJoin(code))
        #expect(parse("venue leave") == .venueLeave)
        #expect(error("venue hub pub/east")?.contains("a group's name is 1-64 letters") == true)
        #expect(error("venue add screen+2")?.contains("a box's name is 1-64 letters") == true)
        #expect(error("venue join 192.168.1.10")?.contains("begins 'delaybox-venue:'") == true)
        #expect(error("venue join \(code.text.dropLast(30))")?.contains("copy it again") == true)
        #expect(error("venue hub")?.hasPrefix("usage: venue") == true)
    }

    /// A code's parts are checked as root will check them: a hub that is a chrony option,
    /// a short password, a port out of range — refused at the console, never asked.
    @Test func aJoinCodeIsCheckedPartByPart() throws {
        #expect(try VenueJoinCode.parse("  \(code.text)\n").get() == code)
        for (text, said) in [
            ("delaybox-venue:-x/1883/pub/screen2/Kq7mZ2xP9rT4wLn8Hc3vBy6d", "not a hub's address"),
            ("delaybox-venue:hub/0/pub/screen2/Kq7mZ2xP9rT4wLn8Hc3vBy6d", "cut short or altered"),
            ("delaybox-venue:hub/1883/pub/screen2/short", "16-128 printable"),
            ("delaybox-venue:hub/1883/p b/screen2/Kq7mZ2xP9rT4wLn8Hc3vBy6d", "a group's name"),
            ("delaybox-venue:hub/1883/pub/screen2/Kq7mZ2xP9rT4wLn8Hc3vBy6d/more", "cut short or altered"),
        ] {
            guard case .failure(let problem) = VenueJoinCode.parse(text) else {
                Issue.record("\(text) was taken")
                continue
            }
            #expect(problem.description.contains(said), "\(text): \(problem)")
        }
        let passwords = Set((0..<50).map { _ in VenueJoinCode.newPassword() })
        #expect(passwords.count == 50 && passwords.allSatisfy { $0.count == 24 })
    }

    /// The broker's credentials are handed out on the page or at the box, never over MQTT;
    /// anyone may see the box's part.
    @Test func theCredentialsCommandsAreThePagesNeverMQTTs() throws {
        for line in ["venue hub pub", "venue add screen2", "venue join \(code.text)", "venue leave"] {
            let request = try #require(try ConsoleLanguage.parse(line)?.get())
            #expect(NetworkDoorPolicy.refusal(request, door: .page) == nil, "\(line)")
            #expect(NetworkDoorPolicy.refusal(request, door: .mqtt)?.contains("boxes' pages") == true, "\(line)")
            #expect(NetworkDoorPolicy.refusal(request, door: .group) != nil, "\(line)")
        }
        let show = try #require(try ConsoleLanguage.parse("venue")?.get())
        #expect(NetworkDoorPolicy.refusal(show, door: .mqtt) == nil)
    }
}
