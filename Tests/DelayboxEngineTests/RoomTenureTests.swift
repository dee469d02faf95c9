import Testing

@testable import DelayboxEngine

/// Issue 70: a box is settled in its room after a minute of taking part; leaving the group or
/// a clock untrusted for over a minute makes it a newcomer again, a shorter lapse does not.
@Suite(.timeLimit(.minutes(10))) struct RoomTenureTests {
    static func at(_ seconds: Int64) -> Instant { .zero.advanced(byMilliseconds: seconds * 1_000) }

    @Test func aBoxIsSettledAfterAMinuteInTheRoom() {
        var tenure = RoomTenure()
        #expect(tenure.look(member: true, trusted: false, now: Self.at(0)) == nil, "an untrusted clock takes no part")
        #expect(tenure.look(member: true, trusted: true, now: Self.at(10)) == false)
        #expect(tenure.look(member: true, trusted: true, now: Self.at(69)) == false)
        #expect(tenure.look(member: true, trusted: true, now: Self.at(70)) == true)
    }

    @Test func leavingTheGroupForgetsTheTenure() {
        var tenure = RoomTenure()
        _ = tenure.look(member: true, trusted: true, now: Self.at(0))
        #expect(tenure.look(member: true, trusted: true, now: Self.at(100)) == true)
        #expect(tenure.look(member: false, trusted: true, now: Self.at(101)) == nil)
        #expect(tenure.look(member: true, trusted: true, now: Self.at(102)) == false, "back as a newcomer")
    }

    @Test func aLongLapseOfTheClockForgetsTheTenureAShortOneDoesNot() {
        var tenure = RoomTenure()
        _ = tenure.look(member: true, trusted: true, now: Self.at(0))
        #expect(tenure.look(member: true, trusted: true, now: Self.at(100)) == true)
        // The hub's chrony restarts: 20 s untrusted, still settled after.
        #expect(tenure.look(member: true, trusted: false, now: Self.at(101)) == nil)
        #expect(tenure.look(member: true, trusted: false, now: Self.at(120)) == nil)
        #expect(tenure.look(member: true, trusted: true, now: Self.at(121)) == true)
        // Off the LAN for an hour: a newcomer when its clock is trusted again.
        _ = tenure.look(member: true, trusted: false, now: Self.at(200))
        _ = tenure.look(member: true, trusted: false, now: Self.at(3_800))
        #expect(tenure.look(member: true, trusted: true, now: Self.at(3_801)) == false)
        #expect(tenure.look(member: true, trusted: true, now: Self.at(3_861)) == true)
    }
}
