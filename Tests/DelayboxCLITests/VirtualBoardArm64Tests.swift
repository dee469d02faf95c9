import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The boards' CPU in the loop: the arm64 release a Raspberry Pi installs (Swift 6.0, static
/// runtime; tools/arm64/check.sh) on the arm64 virtual board — QEMU's `virt` machine with a
/// Cortex-A72, Debian 13's arm64 kernel, gpio-sim, snd-aloop, its PL011 UART as the console's
/// port, and a Debian 13 arm64 root filesystem (debootstrap). The x86 boards' scenarios and
/// deploy, unchanged. Everything runs under software emulation, several times slower than the
/// x86 board: `make test-arm64-board` runs this suite, `make test` does not (docs/hardware.md).
@Suite(
    .serialized, .enabled(if: VirtualBoard.asked, VirtualBoard.notAsked),
    .enabled(
        if: VirtualBoard.Board.arm64.isAvailable || (getuid() == 0 && VirtualBoard.asked),
        "needs qemu-system-aarch64, the arm64 board and the arm64 build (make test-arm64-board builds them)"),
    .timeLimit(.minutes(40)))
struct VirtualBoardArm64Tests {
    let board = VirtualBoard.Board.arm64

    @Test func theFrontPanelOnKernelDriversChangesTheDelayPausesAndLightsTheLED() throws {
        try VirtualBoardTests().theFrontPanelOnKernelDriversChangesTheDelayPausesAndLightsTheLED(board: board)
    }

    @Test func anIRRemotesKeysChangeDelayVolumePresetAndChannel() throws {
        try VirtualBoardTests().anIRRemotesKeysChangeDelayVolumePresetAndChannel(board: board)
    }

    @Test func theJackHearsTheDelayChangeAndTheCodecsVolume() throws {
        try VirtualBoardTests().theJackHearsTheDelayChangeAndTheCodecsVolume(board: board)
    }

    @Test func theConsoleAnswersOnTheBoardsUART() throws {
        try VirtualBoardTests().theConsoleAnswersOnTheVirtualSerialPort(board: board)
    }

    @Test func aSoundCardPulledAndPutBackIsSurvived() throws {
        try VirtualBoardTests().aSoundCardPulledAndPutBackIsSurvived(board: board)
    }

    @Test func everyListedFormatPlaysOnTheBoard() throws {
        try VirtualBoardTests().everyListedFormatPlaysOnTheBoard(board: board)
    }

    @Test func aGoodReleaseInstallsAndABrokenOneIsRolledBack() throws {
        try VirtualBoardDeployTests().aGoodReleaseInstallsAndABrokenOneIsRolledBack(board: board)
    }
}
