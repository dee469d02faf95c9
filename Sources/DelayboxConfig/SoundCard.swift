/// A sound card as the kernel lists it in `/proc/asound/cards`
/// (` 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones`).
public struct SoundCard: Sendable, Equatable {
    public var index: Int
    /// ALSA's name for it (`Headphones`, `vc4hdmi0`, `sndrpihifiberry`, `Device`).
    public var id: String
    public var driver: String
    public var name: String

    public init(index: Int, id: String, driver: String, name: String) {
        (self.index, self.id, self.driver, self.name) = (index, id, driver, name)
    }

    /// An HDMI output: a TV's speakers, never the box's own jack.
    public var isHDMI: Bool { (id + " " + driver + " " + name).lowercased().contains("hdmi") }
    /// The Pi's own headphone jack (PWM audio: the analogue output of last resort).
    public var isPiJack: Bool { id == "Headphones" || driver.hasPrefix("bcm2835") }

    /// The ALSA device that plays on it: the card by its name, so that another card
    /// plugged in first does not take its place.
    public var device: String { "hw:CARD=\(id),DEV=0" }

    /// The cards listed in `text` (`/proc/asound/cards`); lines that are not a card's
    /// first line are skipped, and so is anything that does not read as one.
    public static func parse(_ text: String) -> [SoundCard] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard let open = trimmed.firstIndex(of: "["), let close = trimmed.firstIndex(of: "]"), open < close,
                let index = Int(trimmed[..<open].filter { $0 != " " }), (0..<64).contains(index)
            else { return nil }
            let id = trimmed[trimmed.index(after: open)..<close].filter { $0 != " " }
            let rest = trimmed[trimmed.index(after: close)...].drop { $0 == ":" || $0 == " " }
            let parts = rest.split(separator: " - ", maxSplits: 1)
            // An id is letters, digits and `_` (ALSA's rule): anything else is not a card.
            guard !id.isEmpty, id.count <= 32,
                id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else { return nil }
            return SoundCard(
                index: index, id: String(id), driver: parts.first.map { String($0) } ?? "",
                name: parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
