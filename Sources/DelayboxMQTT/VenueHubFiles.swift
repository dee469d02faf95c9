/// The files a venue's hub and its boxes are configured by (issue 70), as root's venue
/// helper writes them: mosquitto's listener and its security files, chrony serving the LAN
/// or following the hub, and the hub's Avahi announcement (`_delaybox-hub._tcp`), by which
/// a box's page finds it.
public enum VenueHubFiles {
    /// The service type a hub announces.
    public static let serviceType = "_delaybox-hub._tcp"

    /// mosquitto's part (Debian's mosquitto.conf reads /etc/mosquitto/conf.d): on every
    /// address at `port`, only the users of `passwordFile`, each as the ACL allows.
    public static func broker(port: Int, passwordFile: String, aclFile: String) -> String {
        """
        # Written by Delaybox: this box is the venue's hub (docs/mqtt.md). Removed when it leaves.
        listener \(port)
        allow_anonymous false
        password_file \(passwordFile)
        acl_file \(aclFile)

        """
    }

    /// chrony's part on the hub (/etc/chrony/conf.d): serves the LAN's private addresses
    /// and, when it has no better source itself (no internet at the venue), its own clock —
    /// the room needs one clock, not the true time.
    public static let timeServer = """
        # Written by Delaybox: this box serves the venue's time (docs/mqtt.md). Removed when it leaves.
        allow 10.0.0.0/8
        allow 172.16.0.0/12
        allow 192.168.0.0/16
        allow 169.254.0.0/16
        allow fc00::/7
        allow fe80::/10
        local stratum 10

        """

    /// chrony's source on a box of the venue (/etc/chrony/sources.d): the hub, preferred,
    /// asked every 16-64 s so that its error stays well under a millisecond.
    public static func timeSource(hub: String) -> String {
        """
        # Written by Delaybox: the venue's hub keeps this box's time (docs/mqtt.md).
        server \(hub) iburst prefer minpoll 4 maxpoll 6

        """
    }

    /// Avahi's service file: the hub's page at `pagePort` (where a box asks to join) and its
    /// broker's port, with the group's name.
    public static func announcement(group: String, brokerPort: Int, pagePort: Int) -> String {
        """
        <?xml version="1.0" standalone='no'?>
        <!DOCTYPE service-group SYSTEM "avahi-service.dtd">
        <!-- Written by Delaybox: this box is the venue's hub (docs/mqtt.md). -->
        <service-group>
          <name replace-wildcards="yes">Delaybox venue \(group) on %h</name>
          <service>
            <type>\(serviceType)</type>
            <port>\(pagePort)</port>
            <txt-record>group=\(group)</txt-record>
            <txt-record>mqtt=\(brokerPort)</txt-record>
          </service>
        </service-group>

        """
    }
}
