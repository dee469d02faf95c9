import DelayboxConfig
import DelayboxState
import DelayboxTestSupport
import Foundation

/// Test helper for the power-cut tests: saves settings generation after generation to the
/// state file given, as fast as it can, until it is killed or the machine loses power,
/// and after each save has returned prints its generation on a line of its own (one
/// `write` each, so a line that reached stdout was reported durable). The settings are
/// `Settings(generation:)`.
///
///     delaybox-settings-writer PATH FIRST_GENERATION [--without-fsync]
///
/// `--without-fsync` saves the way a careless program would (a temporary file renamed
/// over the old one, nothing flushed): the power-cut test's negative control, which its
/// checks must catch.
@main
enum SettingsWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "--without-fsync"),
            let first = Int64(arguments[2])
        else {
            FileHandle.standardError.write(
                Data("usage: delaybox-settings-writer PATH FIRST_GENERATION [--without-fsync]\n".utf8))
            exit(2)
        }
        let path = arguments[1]
        let careless = arguments.count == 4
        let file = SettingsFile(path: path)
        var generation = first
        while true {
            let settings = Settings(generation: generation)
            if careless { try saveWithoutFlushing(settings.encoded(), to: path) } else { try file.save(settings) }
            FileHandle.standardOutput.write(Data("\(generation)\n".utf8))
            generation += 1
        }
    }

    /// A temporary file written and renamed over `path`, with no fsync of either.
    static func saveWithoutFlushing(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-careless"
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let written = data.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        guard file >= 0, written == data.count, close(file) == 0, rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
