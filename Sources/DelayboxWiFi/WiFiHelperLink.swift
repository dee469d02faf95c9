import DelayboxNetwork
import DelayboxState
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// The service's side of root's Wi-Fi helper (`WiFiHelper`): leaves a request in the
/// service's runtime directory, where delaybox-wifi.path sees it, and waits for the answer
/// beside it. The request holds a password for a moment: mode 0600, in a directory only the
/// service and root can enter, removed by root once read.
public struct WiFiHelperLink: Sendable {
    /// The service's runtime directory; nil: the box was not installed from the package,
    /// and nothing here may change its Wi-Fi.
    public let directory: String?
    let clock: any MonotonicClock

    public init(directory: String?, clock: any MonotonicClock) {
        self.directory = directory
        self.clock = clock
    }

    /// Asks for `request` and waits for the answer up to `within`: nil when it was done,
    /// else why not. `pause` waits a while and says whether to go on waiting (false: the
    /// keeper is stopping).
    public func ask(_ request: WiFiRequest, within: TimeAmount, pause: (TimeAmount) -> Bool) -> String? {
        guard let directory else {
            return "this box was not installed from the package: its Wi-Fi is NetworkManager's alone (docs/deploy.md)"
        }
        let answerPath = directory + "/" + WiFiHelper.answerName
        unlink(answerPath)
        let id = UInt64.random(in: 1...UInt64.max)
        do {
            try DurableFile.write(
                Array(request.text(id: id).utf8), to: directory + "/" + WiFiHelper.requestName, mode: 0o600)
        } catch {
            return "cannot ask root's Wi-Fi helper: \(error)"
        }
        let deadline = clock.now() + within
        repeat {
            if let text = Self.read(answerPath), let answer = WiFiAnswer(text: text), answer.id == id {
                unlink(answerPath)
                return answer.failure
            }
        } while clock.now() < deadline && pause(.milliseconds(100))
        return "root's Wi-Fi helper did not answer within \(within.wholeSeconds) s (is delaybox-wifi.path running?)"
    }

    /// The answer file's first bytes, if it is there.
    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
