import Foundation

/// Every container and decoder the box's FFmpeg is built with (tools/ffmpeg/components),
/// each as a station would send it: 3 s of a 440 Hz tone made by the system's ffmpeg. HE-AAC
/// is the aac decoder's too; Debian's ffmpeg has no encoder to make it with.
public enum FormatFixtures {
    public struct Fixture: Sendable, CustomStringConvertible {
        /// The file's name, which says its format (`vorbis.mka`).
        public let file: String
        /// ffmpeg's codec and container arguments.
        public let codec: [String]
        public let rate: Int
        public let channels: Int
        /// How far (frames) a packet's timestamp may stray from the end of the one before:
        /// Matroska's are whole milliseconds, and ffmpeg's HLS muxer leaves a packet's gap
        /// where a segment begins.
        public let slack: Int

        public var description: String { file }
    }

    public static let seconds = 3.0
    public static let frequency = 440

    public static let all: [Fixture] = [
        Fixture(file: "tone.mp3", codec: ["-c:a", "libmp3lame", "-b:a", "128k"], rate: 44_100, channels: 2, slack: 0),
        Fixture(file: "tone.mp2", codec: ["-c:a", "mp2", "-b:a", "192k"], rate: 48_000, channels: 2, slack: 0),
        Fixture(
            file: "tone.aac", codec: ["-c:a", "aac", "-b:a", "128k", "-f", "adts"], rate: 44_100, channels: 1, slack: 0),
        Fixture(file: "opus.ogg", codec: ["-c:a", "libopus", "-b:a", "96k"], rate: 48_000, channels: 2, slack: 0),
        Fixture(file: "vorbis.ogg", codec: ["-c:a", "libvorbis"], rate: 44_100, channels: 2, slack: 0),
        Fixture(file: "flac.oga", codec: ["-c:a", "flac", "-f", "ogg"], rate: 44_100, channels: 2, slack: 0),
        Fixture(file: "tone.flac", codec: ["-c:a", "flac"], rate: 48_000, channels: 2, slack: 0),
        Fixture(file: "s16.wav", codec: ["-c:a", "pcm_s16le"], rate: 44_100, channels: 2, slack: 0),
        Fixture(file: "s24.wav", codec: ["-c:a", "pcm_s24le"], rate: 48_000, channels: 2, slack: 0),
        Fixture(file: "s32.wav", codec: ["-c:a", "pcm_s32le"], rate: 48_000, channels: 1, slack: 0),
        Fixture(file: "f32.wav", codec: ["-c:a", "pcm_f32le"], rate: 48_000, channels: 2, slack: 0),
        Fixture(file: "opus.webm", codec: ["-c:a", "libopus"], rate: 48_000, channels: 2, slack: 48),
        Fixture(file: "vorbis.mka", codec: ["-c:a", "libvorbis"], rate: 44_100, channels: 2, slack: 48),
        Fixture(file: "aac.m4a", codec: ["-c:a", "aac"], rate: 44_100, channels: 2, slack: 0),
        Fixture(
            file: "fragmented.mp4",
            codec: [
                "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "1000000",
            ],
            rate: 48_000, channels: 2, slack: 0),
        Fixture(file: "aac.ts", codec: ["-c:a", "aac", "-f", "mpegts"], rate: 48_000, channels: 2, slack: 0),
        Fixture(file: "mp2.ts", codec: ["-c:a", "mp2", "-f", "mpegts"], rate: 48_000, channels: 2, slack: 0),
        Fixture(
            file: "latm.ts", codec: ["-c:a", "aac", "-f", "mpegts", "-mpegts_flags", "latm"], rate: 48_000, channels: 2,
            slack: 0),
        Fixture(
            file: "ts.m3u8", codec: ["-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0"], rate: 48_000,
            channels: 2, slack: 2_048),
        Fixture(
            file: "fmp4.m3u8",
            codec: ["-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_segment_type", "fmp4"],
            rate: 48_000, channels: 2, slack: 0),
    ]

    /// Makes `fixture` in a directory of its own under `directory` (an HLS playlist's
    /// segments lie beside it) and returns its path: DIRECTORY/FILE/FILE.
    public static func make(_ fixture: Fixture, in directory: URL) throws -> String {
        let own = directory.appendingPathComponent(fixture.file)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        let path = own.appendingPathComponent(fixture.file).path
        try ExternalTool.encodeTone(
            frequency: frequency, seconds: seconds, sampleRate: fixture.rate, channels: fixture.channels,
            codecArguments: fixture.codec, to: path)
        return path
    }
}
