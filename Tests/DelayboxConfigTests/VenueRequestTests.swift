import DelayboxMQTT
import Testing

/// Issue 70: what the service asks root's venue helper is read by root as a stranger's
/// words — each field checked again, so a service that was broken into writes nothing
/// but a venue's own files with names and passwords of the venue's own shape.
@Suite(.timeLimit(.minutes(10))) struct VenueRequestTests {
    let password = "Qx7-p2Vn_9rT4kLm"

    @Test func everyRequestReadsBackAsWritten() throws {
        let requests: [VenueRequest] = [
            .serve(group: "pub-east", managerPassword: password, pagePort: 8080),
            .admit(user: "screen_2", password: password),
            .dismiss(user: "screen2"), .follow(hub: "192.168.1.10"), .follow(hub: "fe80::1"),
            .follow(hub: "hub-box.local"), .leave,
        ]
        for (index, request) in requests.enumerated() {
            let parsed = try VenueRequest.parse(request.text(id: UInt64(index + 1)))
            #expect(parsed.id == UInt64(index + 1))
            #expect(parsed.request == request)
        }
        #expect(!VenueRequest.serve(group: "pub", managerPassword: password, pagePort: 80).summary.contains(password))
    }

    /// Each refusal names the field, and answers the request's id when it had one.
    @Test(arguments: [
        ("admit\nscreen 2\nQx7-p2Vn_9rT4kLm", "a box's name"),
        ("admit\nscreen2\nshort", "16-128 printable"),
        ("admit\nscreen2\nQx7-p2Vn 9rT4kLm", "16-128 printable"),
        ("admit\nmanager\nQx7-p2Vn_9rT4kLm", "the hub's own user"),
        ("serve\npub/east\nQx7-p2Vn_9rT4kLm\n80", "a group's name"),
        ("serve\n\nQx7-p2Vn_9rT4kLm\n80", "a group's name"),
        ("serve\npub\nQx7-p2Vn_9rT4kLm\n0", "a page's port is 1-65535"),
        ("serve\npub\nQx7-p2Vn_9rT4kLm\n80 ", "a page's port is 1-65535"),
        ("serve\npub", "takes 3 lines, not 1"),
        ("follow\n-x", "not a hub's address"),
        ("follow\nhub.local iburst", "not a hub's address"),
        ("follow\nhub.local\nserver evil", "takes 1 lines, not 2"),
        ("leave\nnow", "takes 0 lines"),
        ("install\nsomething", "no venue request 'install'"),
    ])
    func aStrangersFieldIsRefused(fields: String, said: String) {
        #expect {
            try VenueRequest.parse("delaybox-venue-request 42\n" + fields + "\n")
        } throws: { error in
            let problem = error as? VenueRequest.Problem
            return problem?.id == 42 && problem?.description.contains(said) == true
        }
    }

    @Test func aFileThatIsNoRequestIsRefusedWithoutAnId() {
        for text in ["", "delaybox-wifi-request 3\nclose\n", "delaybox-venue-request x\nleave\n"] {
            #expect {
                try VenueRequest.parse(text)
            } throws: { error in
                (error as? VenueRequest.Problem)?.id == nil
            }
        }
    }

    /// The hub's files carry the group and ports given, and a follower's chrony source the hub.
    @Test func theHubsFilesSayWhatTheyServe() {
        let broker = VenueHubFiles.broker(port: 1883, passwordFile: "/etc/delaybox/venue/passwords", aclFile: "/a")
        #expect(broker.contains("listener 1883\nallow_anonymous false\npassword_file /etc/delaybox/venue/passwords\n"))
        #expect(VenueHubFiles.timeServer.contains("local stratum 10"))
        #expect(VenueHubFiles.timeServer.contains("allow 192.168.0.0/16"))
        #expect(VenueHubFiles.timeSource(hub: "10.0.0.5").contains("server 10.0.0.5 iburst prefer"))
        let announcement = VenueHubFiles.announcement(group: "pub", brokerPort: 1884, pagePort: 8080)
        #expect(announcement.contains("<type>_delaybox-hub._tcp</type>"))
        #expect(announcement.contains("<port>8080</port>"))
        #expect(announcement.contains("<txt-record>group=pub</txt-record>"))
        #expect(announcement.contains("<txt-record>mqtt=1884</txt-record>"))
    }
}
