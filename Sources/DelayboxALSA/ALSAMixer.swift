import CALSA
import DelayboxAudio
import Glibc

/// A codec's playback volume control through ALSA's simple mixer (`Digital` on a
/// PCM5122, `Playback` on a WM8960), set in dB so the perceptual curve sounds the same on
/// every board. Controls have discrete steps: a set tries the exact value, then the
/// nearest step below, then above (as shairport-sync does).
public final class ALSAMixer: HardwareVolume {
    public let controlName: String
    public let decibelRange: ClosedRange<Double>
    private var mixer: OpaquePointer?
    private let element: OpaquePointer
    private let hasSwitch: Bool

    /// Opens `control` on the card that `device` plays to.
    public init(device: String, control: String) throws(OutputError) {
        _ = ALSAError.captureErrors
        let card = Self.cardName(forDevice: device)
        controlName = "\(card) '\(control)'"
        var handle: OpaquePointer?
        try ALSAError.check(snd_mixer_open(&handle, 0), "snd_mixer_open", device: card)
        guard let handle else { throw .deviceLost(reason: "\(card): snd_mixer_open returned no handle") }
        var found: OpaquePointer?
        do throws(OutputError) {
            try ALSAError.check(snd_mixer_attach(handle, card), "snd_mixer_attach", device: card)
            try ALSAError.check(snd_mixer_selem_register(handle, nil, nil), "snd_mixer_selem_register", device: card)
            try ALSAError.check(snd_mixer_load(handle), "snd_mixer_load", device: card)
            var id: OpaquePointer?
            try ALSAError.check(snd_mixer_selem_id_malloc(&id), "snd_mixer_selem_id_malloc", device: card)
            defer { snd_mixer_selem_id_free(id) }
            snd_mixer_selem_id_set_index(id, 0)
            snd_mixer_selem_id_set_name(id, control)
            found = snd_mixer_find_selem(handle, id)
            guard let found, snd_mixer_selem_has_playback_volume(found) != 0 else {
                throw .unsupported(reason: "\(card) has no playback volume control '\(control)'")
            }
        } catch {
            snd_mixer_close(handle)
            throw error
        }
        var low = 0, high = 0
        snd_mixer_selem_get_playback_dB_range(found, &low, &high)
        mixer = handle
        element = found!
        decibelRange = Double(low) / 100...Double(max(low, high)) / 100
        hasSwitch = snd_mixer_selem_has_playback_switch(found) != 0
    }

    deinit { if let mixer { snd_mixer_close(mixer) } }

    public func setVolume(decibels: Double) throws(OutputError) -> Double {
        let ceiling = min(decibelRange.upperBound, 0)
        let wanted = Int((min(max(decibels, decibelRange.lowerBound), ceiling) * 100).rounded())
        var rc: Int32 = -EINVAL
        for direction: Int32 in [0, -1, 1] {
            rc = snd_mixer_selem_set_playback_dB_all(element, wanted, direction)
            if rc == 0 { break }
        }
        try ALSAError.check(rc, "snd_mixer_selem_set_playback_dB_all", device: controlName)
        var set = 0
        snd_mixer_selem_get_playback_dB(element, SND_MIXER_SCHN_FRONT_LEFT, &set)
        return Double(set) / 100
    }

    public func setMuted(_ muted: Bool) throws(OutputError) -> Bool {
        guard hasSwitch else { return false }
        try ALSAError.check(
            snd_mixer_selem_set_playback_switch_all(element, muted ? 0 : 1),
            "snd_mixer_selem_set_playback_switch_all", device: controlName)
        return true
    }

    /// The control device of the card a PCM name plays to: `hw:CARD=x,DEV=0` → `hw:CARD=x`,
    /// `plughw:1,0` → `hw:1`; anything else (`default`, plugins) → `default`.
    public static func cardName(forDevice device: String) -> String {
        for prefix in ["hw:", "plughw:"] where device.hasPrefix(prefix) {
            let first = device.dropFirst(prefix.count).split(separator: ",").first.map(String.init) ?? ""
            return "hw:" + first
        }
        return "default"
    }
}
