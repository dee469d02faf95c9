import Glibc

/// The listener's volume, 0-100, on a perceptual curve: amplitude is the cube of the
/// fraction, so each step sounds about as large as the next (60 dB from 100 down to 10;
/// 50 is -18 dB). The same curve drives software gain and the codec's mixer in dB, so a
/// board sounds alike whichever it uses. (snapcast's ALSA mixer uses the same 60·log10.)
public enum VolumeCurve {
    /// The loudest setting.
    public static let maximum = 100

    /// Attenuation in dB for `volume` (0 gives -infinity: silence).
    public static func decibels(_ volume: Int) -> Double {
        let fraction = Double(min(max(volume, 0), maximum)) / Double(maximum)
        return 60 * log10(fraction)
    }

    /// Linear amplitude for `volume`, 0...1.
    public static func gain(_ volume: Int) -> Float {
        let fraction = Float(min(max(volume, 0), maximum)) / Float(maximum)
        return fraction * fraction * fraction
    }
}
