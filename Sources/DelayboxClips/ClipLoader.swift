import DelayboxEngine
import DelayboxMixer
import DelayboxPlatform
import Synchronization

/// Fetches and decodes mute music and ads on its own thread, so the playout thread never
/// waits for the network or a decoder: the playout thread says what it wants, and takes
/// the clips (or the reasons they failed) when they are ready. A file that fails is tried
/// again later — 30 s, doubling up to 10 min, each ±20 % so that a venue's boxes do not
/// ask a failed server again in step — until it comes.
public final class ClipLoader: @unchecked Sendable {
    public enum Result: Sendable {
        case loaded(url: String, clip: AudioClip)
        case failed(url: String, reason: String, retryInSeconds: Int)
    }

    private struct Want {
        var url: String
        var maxSeconds: Int
        /// When to try (ns, CLOCK_MONOTONIC): at once until it failed.
        var dueNs: Int64 = .min
        var backoff = ReconnectBackoff(initial: .seconds(30), cap: .minutes(10), jitter: 0.2)

        var hasFailed: Bool { backoff.attempts > 0 }
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
                guard let failed = state.wants.firstIndex(where: \.hasFailed) else { return false }
                state.wants.remove(at: failed)
            }
            state.wants.append(Want(url: url, maxSeconds: maxSeconds))
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
        var random = SystemRandomNumberGenerator()
        while !worker.isStopRequested {
            let now = SystemClock.monotonicNanoseconds()
            let next = state.withLock { state in state.wants.first { $0.dueNs <= now } }
            guard let want = next else {
                let earliest = state.withLock { $0.wants.map(\.dueNs).min() }
                let wait = earliest.map { TimeAmount(nanoseconds: $0 - now) } ?? .hours(1)
                worker.wait(for: min(wait, .hours(1)))
                continue
            }
            do throws(ClipCache.Failure) {
                let clip = try cache.clip(want.url, maxSeconds: want.maxSeconds)
                state.withLock { state in
                    state.results.append(.loaded(url: want.url, clip: clip))
                    state.wants.removeAll { $0.url == want.url }
                }
            } catch {
                state.withLock { state in
                    // (A want made room for another meanwhile is not tried again: it is said once.)
                    var wait = want.backoff.initial
                    if let index = state.wants.firstIndex(where: { $0.url == want.url }) {
                        wait = state.wants[index].backoff.nextDelay(using: &random)
                        state.wants[index].dueNs = SystemClock.monotonicNanoseconds() + wait.nanoseconds
                    }
                    state.results.append(
                        .failed(
                            url: want.url, reason: error.description,
                            retryInSeconds: Int((wait.milliseconds + 500) / 1_000)))
                }
            }
        }
    }
}
