import DelayboxMicroHTTPD
import Dispatch
import Synchronization

/// The status as the page's event streams carry it: the latest status JSON and its
/// number, and the streams waiting for the next. The web door's thread refreshes it —
/// at a change and every second while a stream is open, never while none is (nobody
/// looks: no wake-up).
final class WebStatusFeed: Sendable {
    /// Streams open at most, and from one network (`ClientNetwork`: a phone and a tablet
    /// and one to spare); another is answered 503, so one neighbour cannot take them all.
    static let streamLimit = 8
    static let streamLimitPerNetwork = 3
    /// A comment line this often keeps a quiet stream open through proxies and finds
    /// closed connections (ns).
    static let keepaliveNs: Int64 = 15_000_000_000

    private struct State {
        var text: String?
        var number = 0
        var streams: [ObjectIdentifier: Stream] = [:]
        var stopped = false
    }

    private let state = Mutex(State())
    /// Called when a stream opens: the door's thread refreshes at once.
    private let opened: @Sendable () -> Void

    init(opened: @escaping @Sendable () -> Void) { self.opened = opened }

    var hasStreams: Bool { state.withLock { !$0.streams.isEmpty } }

    /// A new status: every stream sends it.
    func publish(_ text: String) {
        let streams = state.withLock { state in
            state.text = text
            state.number += 1
            return Array(state.streams.values)
        }
        streams.forEach { $0.ring() }
    }

    /// A stream for one connection from `network`; nil at a limit or once stopped.
    func open(network: String) -> (any WebServer.EventSource)? {
        let stream = Stream(feed: self, network: network)
        let added = state.withLock { state in
            guard !state.stopped, state.streams.count < Self.streamLimit,
                state.streams.values.count(where: { $0.network == network }) < Self.streamLimitPerNetwork
            else { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        guard added else { return nil }
        opened()
        return stream
    }

    /// Ends every stream (their `next` returns nil), and refuses new ones.
    func stop() {
        let streams = state.withLock { state in
            state.stopped = true
            return Array(state.streams.values)
        }
        streams.forEach { $0.ring() }
    }

    fileprivate func latest(after number: Int) -> (text: String, number: Int)? {
        state.withLock { state in
            guard let text = state.text, state.number > number else { return nil }
            return (text, state.number)
        }
    }

    fileprivate var isStopped: Bool { state.withLock { $0.stopped } }

    fileprivate func remove(_ stream: Stream) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// One connection's stream: `data: STATUS` at each new status, a comment when quiet.
    final class Stream: WebServer.EventSource, Sendable {
        private let feed: WebStatusFeed
        /// The peer's network, which the per-network limit counts.
        let network: String
        private let signal = DispatchSemaphore(value: 0)
        /// The status number sent last, and bytes not yet taken.
        private let progress = Mutex<(number: Int, pending: [UInt8])>((0, Array("retry: 2000\n\n".utf8)))

        fileprivate init(feed: WebStatusFeed, network: String) {
            self.feed = feed
            self.network = network
        }

        fileprivate func ring() { signal.signal() }

        func next(limit: Int) -> [UInt8]? {
            while true {
                if feed.isStopped { return nil }
                if let chunk = take(limit: limit) { return chunk }
                let number = progress.withLock { $0.number }
                if let (text, latest) = feed.latest(after: number) {
                    progress.withLock { $0 = (latest, Array("data: \(text)\n\n".utf8)) }
                    continue
                }
                if signal.wait(timeout: .now() + .nanoseconds(Int(WebStatusFeed.keepaliveNs))) == .timedOut {
                    progress.withLock { $0.pending = Array(":\n\n".utf8) }
                }
            }
        }

        private func take(limit: Int) -> [UInt8]? {
            progress.withLock { progress in
                guard !progress.pending.isEmpty else { return nil }
                let chunk = Array(progress.pending.prefix(limit))
                progress.pending.removeFirst(chunk.count)
                return chunk
            }
        }

        func close() { feed.remove(self) }
    }
}
