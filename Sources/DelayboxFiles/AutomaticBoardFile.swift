import DelayboxConfig
import DelayboxState
import DelayboxUnits
import FoundationEssentials
import Glibc

/// Where a box with no board file writes the board it chose at its start
/// (`AutomaticBoard`): `auto-board.yaml` beside the state file, made anew at every start,
/// so that a HAT or a USB DAC plugged in since is found.
public enum AutomaticBoardFile {
    /// Why no board could be chosen or kept.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where the kernel lists the sound cards; `DELAYBOX_SOUND_CARDS` names another file
    /// (a test's).
    static var cardsPath: String {
        ProcessInfo.processInfo.environment["DELAYBOX_SOUND_CARDS"] ?? "/proc/asound/cards"
    }

    /// How long a start that finds no sound card waits for one (`AutomaticBoard.cards`):
    /// a HAT's codec driver may load after the service starts.
    static let cardWait = TimeAmount.seconds(10)

    /// The board file to play with, beside `statePath`, and what was chosen and why;
    /// throws when no shipped boards are installed to choose from.
    public static func prepare(besideState statePath: String) throws -> (path: String, said: String) {
        guard let directory = BoardCatalog.directory else {
            throw Unavailable(
                description: "no board config and no shipped boards to choose from "
                    + "(looked in \(BoardCatalog.directories.joined(separator: ", ")))")
        }
        let cards = AutomaticBoard.cards(
            waitingUpTo: cardWait,
            read: { (try? String(contentsOfFile: cardsPath, encoding: .utf8)) ?? "" },
            pause: { usleep(UInt32($0.nanoseconds / 1_000)) })
        let choice = AutomaticBoard.choose(proposed: BoardCatalog.choices().proposed, cards: cards)
        let path = URL(fileURLWithPath: statePath).deletingLastPathComponent().appendingPathComponent("auto-board.yaml")
            .path
        do {
            try DurableFile.write(
                Array(AutomaticBoard.yaml(for: choice, boardsDirectory: directory).utf8), to: path, mode: 0o640)
        } catch {
            throw Unavailable(description: "cannot write the board it chose to \(path): \(error)")
        }
        return (path, AutomaticBoard.describe(choice))
    }
}
