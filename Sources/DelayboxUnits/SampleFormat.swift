/// A sample format an output device takes, named as ALSA and the board config name it.
public enum SampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed little-endian.
    case s16 = "S16_LE"
    /// 24-bit signed little-endian in the low three bytes of a 32-bit word (what most
    /// I2S codec drivers call S24_LE).
    case s24 = "S24_LE"
    /// 32-bit signed little-endian.
    case s32 = "S32_LE"

    /// Bytes one sample takes in memory.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }

    /// Full scale: the largest positive value.
    public var fullScale: Float {
        switch self {
        case .s16: 32_767
        case .s24: 8_388_607
        // Float has 24 bits of mantissa: the largest Float below 2^31 converts without
        // overflow (2_147_483_647 rounds up to 2^31).
        case .s32: 2_147_483_520
        }
    }
}
