import DelayboxEngine

/// The board a box plays on before anyone chose one (issue 68: an image flashed, booted,
/// nobody at a terminal): the shipped board its HAT's EEPROM names; else the first sound
/// card that is neither HDMI nor the Pi's own jack (a DAC HAT without an EEPROM, a USB
/// DAC), else the jack, else HDMI, on the shipped defaults (`base.yaml`: the panel, the
/// console, the page, the hotspot, the demo channel). The page's Box → Board chooses for
/// good (`board use`).
public enum AutomaticBoard {
    public enum Choice: Sendable, Equatable {
        /// A shipped board, by name.
        case shipped(String)
        /// The defaults, playing on this card.
        case card(SoundCard)
        /// No card at all: ALSA's default device, and the log says so.
        case noCard
    }

    /// The sound cards listed by `read` (`/proc/asound/cards`), waiting up to `wait` for a
    /// first one, `pause` between looks (a quarter second each): at boot a HAT's driver (a
    /// deferred probe), or a PCI or USB card's, may register after the box's service starts
    /// — on the emulated board the card came ~2 s after a start that had chosen "no card",
    /// and played on ALSA's default device with a board saying it had none. A box with no
    /// card at all starts `wait` later.
    public static func cards(waitingUpTo wait: TimeAmount, read: () -> String, pause: (TimeAmount) -> Void)
        -> [SoundCard]
    {
        let step = TimeAmount.milliseconds(250)
        var waited = TimeAmount.zero
        while true {
            let cards = SoundCard.parse(read())
            if !cards.isEmpty || waited >= wait { return cards }
            pause(step)
            waited = waited + step
        }
    }

    /// What to play on: `proposed` are the shipped boards the HAT names (first wins).
    public static func choose(proposed: [String], cards: [SoundCard]) -> Choice {
        if let board = proposed.first { return .shipped(board) }
        let ranked = cards.sorted { rank($0) < rank($1) || (rank($0) == rank($1) && $0.index < $1.index) }
        return ranked.first.map { .card($0) } ?? .noCard
    }

    private static func rank(_ card: SoundCard) -> Int { card.isHDMI ? 2 : card.isPiJack ? 1 : 0 }

    /// Why, in a listener's words (the log, `status`'s board).
    public static func describe(_ choice: Choice) -> String {
        switch choice {
        case .shipped(let name): "the board its HAT names: \(name)"
        case .card(let card): "no HAT names itself: the defaults on \(card.id) (\(card.name))"
        case .noCard: "no sound card: the defaults on ALSA's default device"
        }
    }

    /// The board file for `choice`, over the shipped boards in `directory`: a shipped
    /// board extended as it is, or `base.yaml` with the card's device.
    public static func yaml(for choice: Choice, boardsDirectory directory: String) -> String {
        let head = "# Chosen by the box at its start (no /etc/delaybox/board.yaml): \(describe(choice)).\n"
        switch choice {
        case .shipped(let name):
            return head + "extends: \(directory)/\(name).yaml\n"
        case .card(let card):
            return head + board(directory, name: "Automatic: \(card.id)", device: card.device)
        case .noCard:
            return head + board(directory, name: "Automatic: no sound card", device: "default")
        }
    }

    private static func board(_ directory: String, name: String, device: String) -> String {
        """
        extends: \(directory)/base.yaml
        board:
          name: "\(name)"
          hat: none
        audio:
          device: "\(device)"
          period: 20 ms
          periods: 4

        """
    }
}
