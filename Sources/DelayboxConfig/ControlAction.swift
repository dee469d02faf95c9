/// What a button press, an encoder turn or its push does. Buttons, console and control
/// socket all end in the same commands; the board config maps inputs to these.
public enum ControlAction: String, Sendable, CaseIterable {
    case delayUp = "delay_up"
    case delayDown = "delay_down"
    case volumeUp = "volume_up"
    case volumeDown = "volume_down"
    /// The knob adjusts delay or volume.
    case modeToggle = "mode_toggle"
    case playPause = "play_pause"
    case jumpToLive = "jump_to_live"
    case mute
    case presetRecall = "preset_recall"
    case presetSave = "preset_save"
    case nextChannel = "next_channel"
    /// Press at a moment heard on the radio, again when the TV shows it: the delay grows
    /// by the time between.
    case tapSync = "tap_sync"
    /// Tap-to-sync both ways, with two inputs: press one at a moment heard on the radio and
    /// the other when the TV shows it, in either order; the delay moves by the difference,
    /// up or down.
    case tapHeard = "tap_heard"
    case tapSeen = "tap_seen"
    /// Says the box's name and its page's address on the output (a box has no screen, and
    /// many phones cannot open `NAME.local`); with no page password set, it also opens the
    /// page's 30 minutes to choose one — a hand on the box proves its owner (docs/web.md).
    case sayAddress = "say_address"
}
