import DelayboxConfig
import Testing

/// The board's config.txt lines in the Pi's boot configuration, and a HAT that names itself.
@Suite(.timeLimit(.minutes(10))) struct BootConfigBlockTests {
    let piOS = "# For more options see config.txt(5)\ndtparam=audio=on\nenable_uart=1\n\n[cm5]\ndtoverlay=dwc2\n"

    @Test func theBoardsLinesGoInABlockOfTheirOwnAfterTheFile() {
        let lines = ["dtparam=audio=off", "dtoverlay=hifiberry-dacplus", "enable_uart=1"]
        let first = BootConfigBlock.apply(lines, to: piOS)
        #expect(first.changed && first.added == ["dtparam=audio=off", "dtoverlay=hifiberry-dacplus"])
        #expect(first.text.hasPrefix(piOS), "the owner's lines stay as they were")
        #expect(
            first.text.hasSuffix(
                "[all]\ndtparam=audio=off\ndtoverlay=hifiberry-dacplus\n# Delaybox: end\n"), "\(first.text)")
        let again = BootConfigBlock.apply(lines, to: first.text)
        #expect(!again.changed && again.text == first.text && again.added.isEmpty)
    }

    @Test func anotherBoardReplacesTheBlockAndNoBlockIsLeftWhenNothingIsNeeded() {
        let first = BootConfigBlock.apply(["dtoverlay=hifiberry-dacplus"], to: piOS).text
        let other = BootConfigBlock.apply(["dtoverlay=hifiberry-dac", "dtoverlay=disable-bt"], to: first)
        #expect(!other.text.contains("hifiberry-dacplus") && other.text.contains("dtoverlay=hifiberry-dac\n"))
        #expect(
            other.text.split(separator: "# Delaybox: end", omittingEmptySubsequences: false).count == 2, "one block")
        let none = BootConfigBlock.apply(["enable_uart=1"], to: first)
        #expect(none.text == piOS, "\(none.text)")
    }

    @Test func aLineInAnotherModelsSectionDoesNotCount() {
        let result = BootConfigBlock.apply(["dtoverlay=dwc2"], to: piOS)
        #expect(
            result.added.isEmpty && result.changed && result.text.hasSuffix("[all]\ndtoverlay=dwc2\n# Delaybox: end\n"))
    }

    @Test func hatsThatNameThemselves() {
        #expect(AudioHAT.named(byEEPROM: "HiFiBerry DAC+\0") == .hifiberryDacPlus)
        #expect(AudioHAT.named(byEEPROM: "HiFiBerry DAC+ Pro") == .hifiberryDacPlus)
        #expect(AudioHAT.named(byEEPROM: "IQaudIO DAC+") == .iqaudioDacPlus)
        #expect(AudioHAT.named(byEEPROM: "Pi-DAC+") == .iqaudioDacPlus)
        #expect(AudioHAT.named(byEEPROM: "Sense HAT") == nil)
        #expect(AudioHAT.named(byEEPROM: "") == nil)
    }
}
