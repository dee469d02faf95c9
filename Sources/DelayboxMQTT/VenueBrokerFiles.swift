import DelayboxConfig

/// The venue's broker as the box that serves it will write it (issue 70): mosquitto's
/// ACL, the one docs/mqtt.md shows — each box, logged in with its client id as its user name,
/// writes only its own topics and its own figures in the group, and reads its commands and
/// the group's; only the venue's `manager` commands the boxes. Made from `MQTTTopics`, so
/// the broker allows exactly what a box says and hears.
public enum VenueBrokerFiles {
    /// The user that reads everything and commands the boxes: the hub's own box (its page
    /// runs the venue), Home Assistant.
    public static let manager = "manager"

    /// mosquitto's ACL for the boxes of `group` (nil: of any group).
    public static func acl(group: String?) -> String {
        // mosquitto puts the user name where `%u` stands; a wildcard level for any group.
        let box = MQTTTopics(
            settings: MQTTSettings(host: "hub", port: 1883, clientID: "%u", group: group ?? "+"), hostname: "")
        let writes =
            [box.status, box.availability, box.reply, box.event]
            + [box.memberRelease(of: "%u"), box.memberVenue(of: "%u"), box.member("%u")].compactMap { $0 }
            + ["homeassistant/+/%u/#"]
        let reads =
            [box.command] + [box.groupCommand, box.memberReleases, box.memberVenues, box.members].compactMap { $0 }
        return """
            # Each box: user = its client id (mqtt.client_id = mqtt.username: letters, digits, - and _),
            # topics under the default prefix delaybox/<client id>.
            \(writes.map { "pattern write " + $0 }.joined(separator: "\n"))
            \(reads.map { "pattern read " + $0 }.joined(separator: "\n"))

            # The venue's manager (the hub's own box, Home Assistant): reads everything, commands the boxes.
            user \(manager)
            topic readwrite delaybox/#
            topic readwrite homeassistant/#

            """
    }
}
