import DelayboxConfig
import DelayboxJSON
import DelayboxUnits
import FoundationEssentials

/// What a box of a group says of itself on `delaybox/group/<group>/member/<box>` with each
/// status it publishes (not retained: a box gone is not heard of again), so that any box's
/// page shows the venue's boxes (issue 60): its state, channel, delay and the release it
/// runs (issue 70: before a staged update, which box runs what). Read from any publisher on
/// the broker: every value checked before it is shown.
public struct GroupMember: Codable, Sendable, Equatable {
    public let box: String
    public let state: String
    public let channel: String
    /// The delay set (`delay_ms`).
    @InMilliseconds public private(set) var delay: TimeAmount
    /// The firmware's version it runs; nil from a box of a release that did not say.
    public let release: String?

    enum CodingKeys: String, CodingKey {
        case box, state, channel, release
        case delay = "delay_ms"
    }

    public init(box: String, state: String, channel: String, delay: TimeAmount, release: String? = nil) {
        (self.box, self.state, self.channel, self.release) = (box, state, channel, release)
        self.delay = delay
    }

    /// The longest state or channel name taken (characters).
    static let maximumText = 80

    /// A member as its JSON payload says it; nil for anything else (at most 512 bytes, a
    /// delay of 0 to 24 h, names without control characters).
    public static func read(_ payload: [UInt8]) -> GroupMember? {
        guard payload.count <= 512, let member = try? JSONDecoder().decode(GroupMember.self, from: Data(payload)),
            (TimeAmount.zero...TimeAmount.hours(24)).contains(member.delay),
            [member.box, member.state, member.channel, member.release ?? "-"].allSatisfy({ text in
                !text.isEmpty && text.count <= maximumText
                    && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            })
        else { return nil }
        return member
    }

    public var json: String { JSONText.encode(answer: self) }
}
