import DelayboxOutput
import Foundation
import Testing

/// Output names as the board config and `--output` write them, read through the registry
/// of output kinds, and what each kind can do.
@Suite(.timeLimit(.minutes(10))) struct OutputDeviceNameTests {
    @Test(arguments: [
        ("alsa:hw:CARD=sndrpihifiberry,DEV=0", "alsa:hw:CARD=sndrpihifiberry,DEV=0"), ("default", "alsa:default"),
        ("plughw:1", "alsa:plughw:1"), ("wav:/tmp/out.wav", "wav:/tmp/out.wav"), ("null", "null"),
    ])
    func aNameReadsAsItsKindAndIsWrittenBackInFull(name: String, written: String) throws {
        let device = try #require(OutputDevice(name))
        #expect(device.description == written)
        #expect(OutputDevice(written) == device)
    }

    @Test func aNameWithASpaceOrNothingIsNoDevice() {
        #expect(OutputDevice("") == nil)
        #expect(OutputDevice("my card") == nil)
    }

    /// Only a sound card paces itself (20 ms periods, real-time priority, a mixer); only a
    /// file is written by `play --fast`.
    @Test func eachKindSaysWhatItCanDo() throws {
        let card = try #require(OutputDevice("alsa:default")).kind
        let file = try #require(OutputDevice("wav:/nonexistent-folder/out.wav")).kind
        let nothing = OutputDevice.null.kind
        #expect(card.pacesItself && !file.pacesItself && !nothing.pacesItself)
        #expect(try nothing.fastWriter() == nil)
        #expect(try file.mixer(control: "Digital") == nil)
        #expect(throws: (any Error).self, "the file's folder does not exist") { try file.fastWriter() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try #require(try WavOutputKind(path: path).fastWriter())
        try writer.close()
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
