import DelayboxFFmpeg
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Testing

/// A clip server that misbehaves (issue 39): a redirect loop, a body that never ends, one
/// that trickles — each download is given up on with the reason, nothing filled. (Here,
/// not beside `InputAccessTests`: the Debian 13 root that also runs those has no Python.)
@Suite(.timeLimit(.minutes(10))) struct ClipDownloadTests {
    /// A download follows at most FFmpeg's 8 redirects, stops at its size limit, and gives
    /// up on a server that trickles when the whole download has taken its time.
    @Test func aHostileClipServerIsGivenUpOnWithTheReason() throws {
        let directory = try ExternalTool.temporaryDirectory("clip-download")
        let target = directory.appendingPathComponent("clip.part").path
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try StaticHTTPServer(directory: directory, misbehaving: true)
        func failure(_ path: String, maxBytes: Int = 1_000_000, totalTimeout: TimeAmount = .minutes(2)) -> String {
            do throws(FFmpegError) {
                let bytes = try AudioFile.download(
                    server.url(path), to: target, maxBytes: maxBytes, timeout: .seconds(2), totalTimeout: totalTimeout)
                return "downloaded \(bytes) bytes"
            } catch {
                return error.description
            }
        }
        let loop = failure("redirect-loop")
        #expect(loop.hasPrefix("avio_open2"), "refused at opening, not followed for ever: \(loop)")
        let endless = failure("endless")
        #expect(endless.contains("larger than 1 MB"), "\(endless)")
        let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
        #expect(size <= 1_100_000, "at most the limit and a read written: \(size)")
        let trickle = failure("trickle", totalTimeout: .milliseconds(1_500))
        #expect(trickle.contains("slower than"), "\(trickle)")
        let local = (try? AudioFile.download("file:///etc/hostname", to: target, maxBytes: 1_000)).map {
            "downloaded \($0)"
        }
        #expect(local == nil, "a download is http or https only")
    }
}
