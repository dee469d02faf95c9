import DelayboxEngine
import DelayboxFFmpeg

/// Opens a channel's stream URL as a listener pastes it: a stream itself, a station link
/// (`.pls`, `.m3u`, `.xspf`, `.asx`; `StationPlaylist`), or a station's "listen live" web
/// page (`StationPage`: what does not open as a stream and answers with HTML) — fetched
/// anew at every connection (a station may change its mirrors), their streams tried in
/// order, each failing one giving way to the next.
public enum ChannelInput {
    /// An input open, the stream it plays, and what to tell about how it was found.
    public struct Opened {
        public let input: FFmpegInput
        /// The stream played: the channel's URL, or the playlist's entry.
        public let streamURL: String
        /// `station link: …` when a playlist was read.
        public let note: String?
    }

    /// Why no stream opened (each tried one's reason, for a playlist).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func open(_ url: String, options: FFmpegInput.Options, gate: InterruptGate) throws(Failure) -> Opened
    {
        guard StationPlaylist.isStationLink(url) else {
            do throws(Failure) {
                return try openStream(url, options: options, gate: gate, note: nil)
            } catch {
                guard let page = webPage(url, gate: gate) else { throw error }
                let candidates = StationPage.candidates(page, from: url)
                guard !candidates.isEmpty else {
                    throw Failure(description: "\(url) is a web page with no stream or station link on it")
                }
                return try openFirst(of: candidates, options: options, gate: gate, from: "web page")
            }
        }
        let reading: StationPlaylist.Reading
        let document: (bytes: [UInt8], location: String)
        do throws(FFmpegError) {
            // As large as an HLS playlist may be: a station link's own limit is read's.
            document = try HTTPFetch.document(url, maxBytes: HLSPlaylist.maxBytes, gate: gate)
            reading = StationPlaylist.read(String(decoding: document.bytes, as: UTF8.self), from: document.location)
        } catch {
            throw Failure(description: "cannot read the station link \(url): \(error)")
        }
        switch reading {
        case .hls:
            return try openHLS(url, document: document, options: options, gate: gate)
        case .refused(let reason):
            throw Failure(description: "station link \(url): \(reason)")
        case .streams(let streams):
            return try openFirst(of: streams, options: options, gate: gate, from: "station link")
        }
    }

    /// The first of `streams` that opens (a page's candidate may be a station link itself);
    /// the note says which, and why those before it did not.
    private static func openFirst(of streams: [String], options: FFmpegInput.Options, gate: InterruptGate, from: String)
        throws(Failure) -> Opened
    {
        var failures: [String] = []
        for (index, stream) in streams.enumerated() {
            guard !gate.isStopRequested else { break }
            let note =
                "\(from): \(streams.count) stream\(streams.count == 1 ? "" : "s"), playing #\(index + 1): \(stream)"
                + (failures.isEmpty ? "" : " (" + failures.joined(separator: "; ") + ")")
            do throws(Failure) {
                // A page's playlist link is read as one (a playlist's entries never are).
                guard from == "web page", StationPlaylist.isStationLink(stream) else {
                    return try openStream(stream, options: options, gate: gate, note: note)
                }
                let opened = try open(stream, options: options, gate: gate)
                return Opened(
                    input: opened.input, streamURL: opened.streamURL,
                    note: [note, opened.note].compactMap { $0 }
                        .joined(separator: "; "))
            } catch {
                failures.append("#\(index + 1) failed: \(error)")
            }
        }
        throw Failure(description: "\(from): no stream opened: " + failures.joined(separator: "; "))
    }

    /// The text of `url` when it answers with a web page (HTML within its first kilobyte),
    /// at most `StationPage.maxBytes`; nil for anything else — a stream FFmpeg could not
    /// open is not read on (its first bytes say it is no page).
    private static func webPage(_ url: String, gate: InterruptGate) -> String? {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !gate.isStopRequested else { return nil }
        var bytes: [UInt8] = []
        do throws(FFmpegError) {
            _ = try HTTPFetch.read(url, maxBytes: StationPage.maxBytes, totalTimeout: .seconds(20), gate: gate) {
                (chunk) throws(FFmpegError) in
                bytes.append(contentsOf: chunk)
                if bytes.count >= 1_024, !StationPage.isPage(bytes) {
                    throw FFmpegError(operation: "a web page's first kilobyte", code: -1)
                }
            }
        } catch {
            return nil
        }
        return StationPage.isPage(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// A live HLS station, followed by the box itself (`FFmpegInput.followingHLS`: its
    /// segments fetched as they are listed, so the station's clock shows) — through a
    /// master playlist's variant when it is one; what the box does not follow (and a
    /// segment format its demuxers do not read) is opened by FFmpeg's HLS demuxer, as before.
    private static func openHLS(
        _ url: String, document: (bytes: [UInt8], location: String), options: FFmpegInput.Options, gate: InterruptGate
    ) throws(Failure) -> Opened {
        var reading = HLSPlaylist.read(String(decoding: document.bytes, as: UTF8.self), from: document.location)
        var playlistURL = document.location
        if case .variant(let variant) = reading {
            do throws(FFmpegError) {
                let fetched = try HTTPFetch.document(variant, maxBytes: HLSPlaylist.maxBytes, gate: gate)
                playlistURL = fetched.location
                reading = HLSPlaylist.read(String(decoding: fetched.bytes, as: UTF8.self), from: fetched.location)
            } catch {
                throw Failure(description: "cannot read the HLS variant \(variant): \(error)")
            }
        }
        let leftToFFmpeg: String
        switch reading {
        case .media(let playlist):
            gate.beginConnection()
            do throws(FFmpegError) {
                let input = try FFmpegInput.followingHLS(
                    playlistURL: playlistURL, playlist: playlist, options: options, gate: gate)
                return Opened(input: input, streamURL: url, note: nil)
            } catch {
                guard !gate.isStopRequested else { throw Failure(description: "\(error)") }
                leftToFFmpeg = "its segments (\(error))"
            }
        case .leftToFFmpeg(let reason):
            leftToFFmpeg = reason
        case .variant:
            leftToFFmpeg = "a master playlist naming another"
        case .refused(let reason):
            throw Failure(description: "HLS playlist \(url): \(reason)")
        }
        return try openStream(
            url, options: options, gate: gate,
            note: "HLS read by FFmpeg's demuxer (\(leftToFFmpeg)): the station's clock shows only over hours")
    }

    private static func openStream(_ url: String, options: FFmpegInput.Options, gate: InterruptGate, note: String?)
        throws(Failure) -> Opened
    {
        gate.beginConnection()
        do throws(FFmpegError) {
            return Opened(
                input: try FFmpegInput(url: url, access: .channel(url), options: options, gate: gate), streamURL: url,
                note: note)
        } catch {
            throw Failure(
                description: gate.didStall ? "no answer within \(options.stallTimeout.milliseconds) ms" : "\(error)")
        }
    }
}
