import DelayboxUnits

/// What `group` answers: the venue group's other boxes as this box last heard them (their
/// `GroupMember` reports). A Codable answer (`JSONValue`); the console's text is a box a line.
public struct GroupAnswer: Codable, Equatable, Sendable {
    public struct Box: Codable, Equatable, Sendable {
        public var box: String
        public var state: String
        public var channel: String
        /// The delay set (`delay_ms`).
        @InMilliseconds public var delay: TimeAmount
        /// The release it runs, as it says; nil when it does not.
        public var release: String?
        /// Seconds since its last report (every status it publishes: at most 30 s apart).
        public var heardSAgo: Int

        enum CodingKeys: String, CodingKey {
            case box, state, channel, release
            case delay = "delay_ms"
            case heardSAgo = "heard_s_ago"
        }

        public init(box: String, state: String, channel: String, delay: TimeAmount, release: String?, heardSAgo: Int) {
            (self.box, self.state, self.channel, self.delay) = (box, state, channel, delay)
            (self.release, self.heardSAgo) = (release, heardSAgo)
        }
    }

    public var group: String
    public var boxes: [Box]

    public init(group: String, boxes: [Box]) {
        self.group = group
        self.boxes = boxes
    }
}
