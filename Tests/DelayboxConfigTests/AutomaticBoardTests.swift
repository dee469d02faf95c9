import DelayboxConfig
import DelayboxUnits
import Testing

/// Issue 68: a box flashed and booted with no board file plays on one it chooses — the
/// HAT's, else the first card that is neither HDMI nor the Pi's jack, else the jack, else
/// HDMI — read from the kernel's card list as a stranger's bytes.
@Suite(.timeLimit(.minutes(10))) struct AutomaticBoardTests {
    static let pi4 = """
         0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                              bcm2835 Headphones
         1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                              vc4-hdmi-0
         2 [vc4hdmi1       ]: vc4-hdmi - vc4-hdmi-1
                              vc4-hdmi-1
        """

    @Test func theKernelsCardListIsRead() {
        let cards = SoundCard.parse(Self.pi4)
        #expect(cards.map(\.id) == ["Headphones", "vc4hdmi0", "vc4hdmi1"])
        #expect(cards.map(\.isHDMI) == [false, true, true] && cards[0].isPiJack && !cards[1].isPiJack)
        #expect(cards[0].device == "hw:CARD=Headphones,DEV=0")
        #expect(SoundCard.parse("--- no soundcards ---").isEmpty)
        #expect(SoundCard.parse(" 0 [evil\"id   ]: x - y\n 99 [Big]: x - y\n x [Bad]: x - y").isEmpty)
    }

    /// A card that registers after the box's start (a HAT's deferred probe, a PCI card's
    /// driver loading) is waited for, in virtual time: found at the fourth look; with none at
    /// all the box gives up after the wait and plays on ALSA's default device.
    @Test func aCardThatRegistersAfterTheStartIsWaitedFor() {
        var looks = 0, paused = TimeAmount.zero
        let late = AutomaticBoard.cards(
            waitingUpTo: .seconds(10),
            read: {
                looks += 1; return looks < 4 ? "--- no soundcards ---" : Self.pi4
            },
            pause: { paused = paused + $0 })
        #expect(late.map(\.id) == ["Headphones", "vc4hdmi0", "vc4hdmi1"] && looks == 4 && paused == .milliseconds(750))
        paused = .zero
        let none = AutomaticBoard.cards(waitingUpTo: .seconds(10), read: { "" }, pause: { paused = paused + $0 })
        #expect(none.isEmpty && paused == .seconds(10))
        paused = .zero
        #expect(
            AutomaticBoard.cards(waitingUpTo: .seconds(10), read: { Self.pi4 }, pause: { paused = paused + $0 }).count
                == 3)
        #expect(paused == .zero, "a card at the first look: no wait")
    }

    @Test func theHatsBoardThenADacThenTheJackThenHDMI() {
        let pi4 = SoundCard.parse(Self.pi4)
        let usb = SoundCard.parse(Self.pi4 + "\n 3 [Device         ]: USB-Audio - USB Audio Device")
        #expect(
            AutomaticBoard.choose(proposed: ["pi4-hifiberry-dacplus"], cards: usb) == .shipped("pi4-hifiberry-dacplus"))
        #expect(AutomaticBoard.choose(proposed: [], cards: usb) == .card(usb[3]))
        #expect(AutomaticBoard.choose(proposed: [], cards: pi4) == .card(pi4[0]))
        #expect(AutomaticBoard.choose(proposed: [], cards: Array(pi4.dropFirst())) == .card(pi4[1]))
        #expect(AutomaticBoard.choose(proposed: [], cards: []) == .noCard)
    }

    @Test func theChosenBoardIsAValidConfigOverTheShippedDefaults() {
        let yaml = AutomaticBoard.yaml(for: .card(SoundCard.parse(Self.pi4)[0]), boardsDirectory: "/b")
        #expect(yaml.contains("extends: /b/base.yaml") && yaml.contains(#"device: "hw:CARD=Headphones,DEV=0""#))
        #expect(
            AutomaticBoard.yaml(for: .shipped("pi4-wm8960"), boardsDirectory: "/b").hasSuffix(
                "extends: /b/pi4-wm8960.yaml\n"))
    }
}
