/// The sound hardware a board plays through, and the GPIO lines (BCM numbers) it takes:
/// a button wired to one of them would fight the codec.
public enum AudioHAT: String, Sendable, CaseIterable {
    /// No HAT: the Pi's onboard headphone jack (PWM on internal lines) or a host.
    case none
    case hifiberryDacPlus = "hifiberry-dacplus"
    case iqaudioDacPlus = "iqaudio-dacplus"
    case phatDac = "phat-dac"
    case wm8960 = "wm8960"

    /// Lines the HAT occupies, with what for.
    public var occupiedLines: [Int: String] {
        let i2s = [18: "I2S BCLK", 19: "I2S LRCLK", 20: "I2S DIN", 21: "I2S DOUT"]
        let i2c = [2: "I2C SDA", 3: "I2C SCL"]
        switch self {
        case .none: return [:]
        case .hifiberryDacPlus, .wm8960: return i2s.merging(i2c) { a, _ in a }
        // IQaudio's DAC+ also drives its amplifier's mute from GPIO 22.
        case .iqaudioDacPlus: return i2s.merging(i2c) { a, _ in a }.merging([22: "amplifier mute"]) { a, _ in a }
        // The pHAT DAC (PCM5102A) has no control bus and no data input.
        case .phatDac: return [18: "I2S BCLK", 19: "I2S LRCLK", 21: "I2S DOUT"]
        }
    }

    /// The HAT that names itself so in its EEPROM (the Pi's firmware puts the product in
    /// `/proc/device-tree/hat/product`); nil for one the box does not know. The pHAT DAC
    /// and the WM8960 boards carry no EEPROM.
    public static func named(byEEPROM product: String) -> AudioHAT? {
        let name = product.lowercased().filter { !$0.isWhitespace && $0 != "\0" }
        if name.contains("hifiberry") && name.contains("dac+") { return .hifiberryDacPlus }
        if name.contains("iqaudio") && name.contains("dac+") || name.hasPrefix("pi-dac+") { return .iqaudioDacPlus }
        return nil
    }

    /// The Pi's serial console lines, taken when the console runs on the header's UART.
    public static let uartLines = [14: "UART TXD", 15: "UART RXD"]
    public static let uartDevices: Set<String> = ["/dev/ttyAMA0", "/dev/ttyS0", "/dev/serial0"]
}
