import DelayboxMQTT
import DelayboxUnits
import Testing

/// Issue 69: the group's roster is a value the MQTT door keeps, not the door's own code.
@Suite(.timeLimit(.minutes(10))) struct GroupRosterTests {
    func member(_ index: Int) -> GroupMember {
        GroupMember(box: "box\(index + 10)", state: "playing", channel: "club", delay: .milliseconds(7_000))
    }

    /// A box new to a full roster takes the place of the one heard from longest ago; a box
    /// heard again takes no one's.
    @Test func aFullRosterKeepsTheLatestBoxes() {
        var roster = GroupRoster()
        for index in 0..<GroupRoster.largest {
            roster.heard(member(index), at: Instant.zero + TimeAmount.seconds(Int64(index)))
        }
        roster.heard(member(0), at: Instant.zero + TimeAmount.seconds(40))
        #expect(roster.members(at: Instant.zero + TimeAmount.seconds(40)).count == GroupRoster.largest)
        roster.heard(member(99), at: Instant.zero + TimeAmount.seconds(41))
        let members = roster.members(at: Instant.zero + TimeAmount.seconds(50))
        let names: [String] = members.map(\.member.box)
        #expect(members.count == GroupRoster.largest)
        #expect(names.contains("box10") && names.contains("box109") && !names.contains("box11"), "\(names)")
        #expect(names == names.sorted())
        #expect(members.first { $0.member.box == "box10" }?.heardSecondsAgo == 10)
    }
}
