/// Where root's venue helper writes (`VenueHelper`): Debian's places for mosquitto's,
/// chrony's and Avahi's parts, and the broker's own files under /etc/delaybox/venue —
/// all below `root` ("" on a box; a test's directory).
public struct VenuePaths: Sendable, Equatable {
    public let root: String

    public init(root: String) { self.root = root }

    /// mosquitto's part: the listener and the security files.
    public var broker: String { root + "/etc/mosquitto/conf.d/delaybox-venue.conf" }
    /// The broker's users, mosquitto's hashes: root's, read by group mosquitto.
    public var passwords: String { root + "/etc/delaybox/venue/passwords" }
    /// The venue's ACL (`VenueBrokerFiles.acl`).
    public var acl: String { root + "/etc/delaybox/venue/acl" }
    /// chrony's part on the hub: serving the LAN.
    public var timeServer: String { root + "/etc/chrony/conf.d/delaybox-venue.conf" }
    /// chrony's source on a box that follows a hub.
    public var timeSource: String { root + "/etc/chrony/sources.d/delaybox-venue.sources" }
    /// The hub's Avahi announcement.
    public var announcement: String { root + "/etc/avahi/services/delaybox-venue.service" }
}
