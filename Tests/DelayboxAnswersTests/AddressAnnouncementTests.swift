import DelayboxAnswers
import DelayboxUnits
import Testing

/// Issues 56 and 60: the box says where it is — its name and its page's address by number,
/// as a phone's address bar takes it, and whether its page waits for a first password.
@Suite(.timeLimit(.minutes(10))) struct AddressAnnouncementTests {
    @Test func theAddressIsSaidAsAPhoneTakesIt() {
        #expect(AddressAnnouncement.speakable("http://192.168.1.23/") == "192 dot 168 dot 1 dot 23")
        #expect(AddressAnnouncement.speakable("http://10.0.0.7:8080/") == "10 dot 0 dot 0 dot 7 port 8080")
        #expect(AddressAnnouncement.speakable("http://[fd00::7]:8080/") == "[fd00::7]:8080")
        let open = AddressAnnouncement(
            name: "kitchen", link: "http://192.168.1.23/", hasPage: true, setupOpen: true, setupWindow: .minutes(30))
        #expect(
            open.spoken
                == "This is Delaybox kitchen. Its page is at 192 dot 168 dot 1 dot 23. "
                + "Choose its password there within 30 minutes.")
        #expect(open.logLine.contains("http://192.168.1.23/") && open.logLine.contains("chosen for 30 min"))
        let set = AddressAnnouncement(
            name: "kitchen", link: "http://192.168.1.23/", hasPage: true, setupOpen: false, setupWindow: .minutes(30))
        #expect(!set.spoken.contains("password") && !set.logLine.contains("chosen"))
        #expect(
            AddressAnnouncement(name: "bar", link: nil, hasPage: true, setupOpen: true, setupWindow: .minutes(30))
                .spoken
                == "This is Delaybox bar. It has no network address yet.")
        #expect(
            AddressAnnouncement(
                name: "bar", link: "http://10.0.0.7/", hasPage: false, setupOpen: false, setupWindow: .minutes(30)
            ).spoken
                == "This is Delaybox bar. It has no web page.")
    }
}
