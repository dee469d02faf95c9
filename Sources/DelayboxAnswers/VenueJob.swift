import DelayboxMQTT
import DelayboxNetwork

/// A venue change the answers ask for (`ConsoleEffect.venue`), carried out off the playout
/// thread: root's venue helper asked and waited for (it restarts the broker and chrony),
/// then the box's own MQTT settings written to its saved config and read again.
public enum VenueJob: Equatable, Sendable {
    /// This box becomes the hub of `group`, and its own box the venue's manager on it; its
    /// page (at `pagePort`) is announced on the LAN.
    case serve(group: String, pagePort: Int)
    /// `box` let into this hub's broker; its join code names this hub at `hub`, in `group`.
    case admit(box: String, hub: String, group: String)
    /// The hubs heard on the LAN (a question of a second and a half).
    case hear
    /// This box joins the venue `code` names.
    case join(VenueJoinCode)
    /// This box fetches its join code from the hub's page at `hub` with `key`, and joins.
    case claim(hub: VenueHubAddress, key: String)
    /// This box leaves its venue.
    case leave
}

/// What a venue change came to.
public enum VenueOutcome: Equatable, Sendable {
    /// Done: what the box is now, in words.
    case done(String)
    /// A box let in: the code its page takes.
    case admitted(VenueJoinCode)
    /// The hubs heard.
    case heard([HeardHub])
    /// Not done, and why; nothing of the box's settings changed.
    case failed(String)
}
