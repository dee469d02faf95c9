/// What the listener can ask of the box, from any door: a button or the encoder (through
/// the board config's actions), the serial console, the control socket. All three turn
/// their input into these, so they behave the same.
public enum Command: Sendable, Equatable {
    /// Changes the delay by this much (ms; negative: towards live).
    case adjustDelay(milliseconds: Int64)
    /// Tap-to-sync measured the radio this much ahead of the TV (ms; negative: behind):
    /// the delay moves by it, or the command is refused if the delay cannot go there.
    case syncDelay(milliseconds: Int64)
    case setDelay(milliseconds: Int64)
    case jumpToLive
    /// Changes the volume by this many steps of the 0-100 scale.
    case adjustVolume(steps: Int)
    case setVolume(Int)
    case toggleMute
    /// Mutes (true) or unmutes, whatever it was: for a door that knows what it wants (a
    /// home automation switch), where a toggle would race with the panel.
    case setMuted(Bool)
    case playPause
    case pause
    case resume
    /// The knob adjusts the delay, or the volume.
    case toggleKnobMode
    /// Recalls or saves the delay preset in this slot (1 and up).
    case recallPreset(Int)
    case savePreset(Int)
    case nextChannel
    /// Whether ad breaks play their ad.
    case setAds(Bool)
    /// Say where the box is (its name and page address), from a control on the box only.
    case sayAddress
    /// Back to the factory's settings (`factory reset`): a front-panel button held through
    /// power-on (`ControlSurface.resetHold`) or the remote's address key held on
    /// (`RemoteKeys.resetHold`), never a mapping in the board config.
    case factoryReset
}
