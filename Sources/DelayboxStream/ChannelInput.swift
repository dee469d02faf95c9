import DelayboxEngine
import DelayboxFFmpeg

/// Opens a channel's stream URL as a listener pastes it: a stream itself, or a station
/// link (`.pls`, `.m3u`, `.xspf`, `.asx`; `StationPlaylist`) that is fetched anew at every
/// connection (a station may change its mirrors) and whose streams are tried in order,
/// each failing one giving way to the next.
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
            return try openStream(url, options: options, gate: gate, note: nil)
        }
        let reading: StationPlaylist.Reading
        do throws(FFmpegError) {
            let bytes = try HTTPFetch.bytes(url, maxBytes: StationPlaylist.maxBytes, gate: gate)
            reading = StationPlaylist.read(String(decoding: bytes, as: UTF8.self), from: url)
        } catch {
            throw Failure(description: "cannot read the station link \(url): \(error)")
        }
        switch reading {
        case .hls:
            return try openStream(url, options: options, gate: gate, note: nil)
        case .refused(let reason):
            throw Failure(description: "station link \(url): \(reason)")
        case .streams(let streams):
            var failures: [String] = []
            for (index, stream) in streams.enumerated() {
                guard !gate.isStopRequested else { break }
                let note =
                    "station link: \(streams.count) stream\(streams.count == 1 ? "" : "s"), playing #\(index + 1): \(stream)"
                    + (failures.isEmpty ? "" : " (" + failures.joined(separator: "; ") + ")")
                do throws(Failure) {
                    return try openStream(stream, options: options, gate: gate, note: note)
                } catch {
                    failures.append("#\(index + 1) failed: \(error)")
                }
            }
            throw Failure(description: "station link \(url): no stream opened: " + failures.joined(separator: "; "))
        }
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
            throw Failure(description: gate.didStall ? "no answer within \(options.stallTimeoutMs) ms" : "\(error)")
        }
    }
}
