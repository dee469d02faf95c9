import DelayboxUnits

/// `wifi:` — the box's own hotspot when it is lost (docs/board-config.md, issue 60).
public struct WiFiSettings: Sendable, Equatable {
    /// How long without a network before the hotspot opens by itself; nil (`never`): only
    /// by hand (a long press of `say_address`, `wifi hotspot on`).
    public var hotspotAfter: TimeAmount?
    /// The hotspot's WPA2 password as the installer printed it on the box's label; nil: the
    /// box's own, random, made at its first start (`HotspotPasswordFile`).
    public var hotspotPassword: Secret?

    /// The default: three minutes — a router's reboot is shorter, a new router longer.
    public static let defaultAfter = TimeAmount.minutes(3)

    public init(hotspotAfter: TimeAmount? = defaultAfter, hotspotPassword: Secret? = nil) {
        self.hotspotAfter = hotspotAfter
        self.hotspotPassword = hotspotPassword
    }
}
