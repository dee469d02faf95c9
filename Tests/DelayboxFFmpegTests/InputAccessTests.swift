import DelayboxFFmpeg
import DelayboxTestSupport
import Foundation
import Testing

/// What FFmpeg may open for each kind of input (issue 39): a stream only network
/// protocols, a clip's file never a playlist, a download only http(s), every input only the
/// containers a radio station streams in (a clip server that misbehaves:
/// `ClipDownloadTests`).
@Suite(.timeLimit(.minutes(10))) struct InputAccessTests {
    static func fixture(_ name: String) throws -> (directory: URL, path: String) {
        let directory = try ExternalTool.temporaryDirectory("input-access")
        let path = directory.appendingPathComponent(name).path
        return (directory, path)
    }

    static func refusal(_ url: String, _ access: InputAccess) -> String? {
        do throws(FFmpegError) {
            _ = try FFmpegInput(url: url, access: access, gate: InterruptGate())
            return nil
        } catch {
            return error.description
        }
    }

    /// A channel's network stream cannot be turned into a local read: not by a path, a
    /// `file:` URL, a pipe or a concatenation.
    @Test func aNetworkStreamReachesNoLocalProtocol() throws {
        let (directory, path) = try Self.fixture("tone.mp3")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 1, sampleRate: 48_000, channels: 2, codecArguments: [], to: path)
        #expect(Self.refusal(path, .namedFile) == nil, "the user's own file plays")
        for url in ["file:" + path, "pipe:0", "concat:\(path)|\(path)", "subfile,,start,0,end,100,,:\(path)"] {
            let refusal = Self.refusal(url, .networkStream)
            #expect(
                refusal?.contains("this input opens protocols http,https,tls,tcp,hls,crypto,httpproxy") == true,
                "\(url): \(refusal ?? "opened")")
        }
    }

    /// A clip's file that is a playlist naming local files is not followed (the classic
    /// HLS read of /etc/passwd); a container outside the list is refused naming the list.
    @Test func aClipIsOneAudioFileInAListedContainer() throws {
        let (directory, playlist) = try Self.fixture("ad.m3u8")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n/etc/hostname\n#EXT-X-ENDLIST\n".write(
            toFile: playlist, atomically: true, encoding: .utf8)
        let refusal = Self.refusal(playlist, .clipFile)
        #expect(
            refusal?.contains("containers mp3,aac,ogg,flac,wav,matroska,mov,mpegts") == true, "\(refusal ?? "opened")")
        let au = directory.appendingPathComponent("tone.au").path
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 1, sampleRate: 48_000, channels: 2, codecArguments: [], to: au)
        let outside = Self.refusal(au, .namedFile)
        #expect(
            outside?.contains("containers mp3,aac,ogg,flac,wav,matroska,mov,mpegts,hls") == true,
            "the message names the list: \(outside ?? "opened")")
    }
}

/// The FFmpeg linked is the box's own (tools/ffmpeg/build.sh, issue 40): built with only
/// the listed containers and decoders, so a format outside the list is refused — by the
/// library itself, whatever the whitelists say — with the list in the message.
@Suite(.timeLimit(.minutes(10))) struct BoxFFmpegTests {
    @Test func theLinkedFFmpegIsTheBoxsOwn() {
        #expect(FFmpegLibrary.configuration.contains("--disable-everything"), "\(FFmpegLibrary.configuration)")
        #expect(!FFmpegLibrary.configuration.contains("--enable-gpl"), "LGPL only")
        let demuxers = Set(FFmpegLibrary.demuxers)
        #expect(demuxers.isSuperset(of: InputAccess.audioContainers + ["hls"]), "\(demuxers)")
        // FFmpeg 7.1's HLS demuxer brings AC-3 and E-AC-3's (their decoders are not built).
        let aliases = ["webm", "mp4", "m4a", "3gp", "3g2", "mj2"]  // names Matroska's and MP4's demuxers also go by
        #expect(
            demuxers.subtracting(InputAccess.audioContainers + aliases + ["hls", "ac3", "eac3"]).isEmpty, "\(demuxers)")
        #expect(
            FFmpegLibrary.audioCodecs == [
                "aac", "aac_latm", "flac", "mp2", "mp3", "opus", "pcm_f32le", "pcm_s16be",
                "pcm_s16le", "pcm_s24le", "pcm_s32le", "pcm_u8", "vorbis",
            ])
        #expect(FFmpegLibrary.version.contains("deb"), "Debian's source: \(FFmpegLibrary.version)")
    }

    /// A listed container carrying a codec outside the list (AC-3 in Matroska).
    @Test func aCodecOutsideTheListIsRefusedNamingTheList() throws {
        let directory = try ExternalTool.temporaryDirectory("box-ffmpeg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ac3.mka").path
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 1, sampleRate: 48_000, channels: 2, codecArguments: ["-c:a", "ac3"], to: path)
        let refusal = InputAccessTests.refusal(path, .namedFile)
        #expect(
            refusal?.contains("not an audio format this box decodes: aac,aac_latm,flac,mp2,mp3,opus") == true,
            "\(refusal ?? "opened")")
    }
}
