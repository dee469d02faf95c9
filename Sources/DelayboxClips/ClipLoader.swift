import DelayboxEngine
import DelayboxMixer
import FoundationEssentials
import DelayboxPlatform
import Synchronization

/// Fetches and decodes mute music and ads on its own thread, so the playout thread never
/// waits for the network or a decoder: the playout thread says what it wants, and takes
/// the clips (or the reasons they failed) when they are ready. A file that fails is tried
/// again later — 30 s, doubling up to 10 min — until it comes.
public final class ClipLoader: @unchecked Sendable {
    public enum Result: Sendable {
        case loaded(url: String, clip: AudioClip)
        case failed(url: String, reason: String, retryInSeconds: Int)
    }

    private struct Want {
        var url: String
        var maxSeconds: Int
        var due: Date
        var retrySeconds: Int
    }

    private let cache: ClipCache
    /// Wanted clips not loaded yet; results waiting for the playout thread.
    private let state = Mutex<(wants: [Want], results: [Result])>(([], []))
    private let worker = WorkerThread(name: "delaybox-clips")

    public init(cache: ClipCache) {
        self.cache = cache
    }

    public func start() { worker.start { [self] in run() } }

    public func stop() { worker.stop() }

    /// Clips wanted at once: a stream that names many ads cannot make the box fetch
    /// without end. When full, the oldest want that has failed makes room; with none
    /// failed the new want waits (the desk asks again each second while its break is held).
    static let maxWants = 8

    /// Asks for the clip at `url` (at most `maxSeconds` long); asking again for a clip
    /// already wanted does nothing.
    public func want(_ url: String, maxSeconds: Int) {
        let added = state.withLock { state -> Bool in
            guard !state.wants.contains(where: { $0.url == url }) else { return false }
            if state.wants.count >= Self.maxWants {
                guard let failed = state.wants.firstIndex(where: { $0.due != .distantPast }) else { return false }
                state.wants.remove(at: failed)
            }
            state.wants.append(Want(url: url, maxSeconds: maxSeconds, due: .distantPast, retrySeconds: 30))
            return true
        }
        if added { worker.wake() }
    }

    /// Takes the results since the last call.
    public func drain() -> [Result] {
        state.withLock { state in
            defer { state.results.removeAll() }
            return state.results
        }
    }

    private func run() {
        while !worker.isStopRequested {
            let now = Date()
            let next = state.withLock { state in state.wants.first { $0.due <= now } }
            guard let want = next else {
                let earliest = state.withLock { $0.wants.map(\.due).min() }
                let wait = earliest.map { max(0, $0.timeIntervalSince(now)) } ?? 3_600
                worker.wait(milliseconds: Int64(min(wait, 3_600) * 1_000))
                continue
            }
            let result: Result
            do throws(ClipCache.Failure) {
                result = .loaded(url: want.url, clip: try cache.clip(want.url, maxSeconds: want.maxSeconds))
            } catch {
                result = .failed(url: want.url, reason: error.description, retryInSeconds: want.retrySeconds)
            }
            state.withLock { state in
                state.results.append(result)
                guard let index = state.wants.firstIndex(where: { $0.url == want.url }) else { return }
                if case .loaded = result {
                    state.wants.remove(at: index)
                } else {
                    state.wants[index].due = Date().addingTimeInterval(Double(want.retrySeconds))
                    state.wants[index].retrySeconds = min(want.retrySeconds * 2, 600)
                }
            }
        }
    }
}
