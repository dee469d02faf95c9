import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP turned into flags that the playout loop polls between
/// periods: signal handlers themselves may do almost nothing, and the loop must decide
/// when to fade out, save and exit, or reload.
public final class SignalInbox: Sendable {
    private let terminate = Atomic<Bool>(false)
    private let reload = Atomic<Bool>(false)
    /// Kept alive for as long as the inbox is.
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    public init(queue: DispatchQueue = DispatchQueue(label: "delaybox.signals")) {
        // A file output that hits a size limit is an output error (EFBIG), not a crash.
        signal(SIGXFSZ, SIG_IGN)
        sources.withLock { sources in
            for number in [SIGTERM, SIGINT, SIGHUP] {
                signal(number, SIG_IGN)  // delivered to the dispatch source instead
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [weak self] in self?.received(number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    private func received(_ number: Int32) {
        if number == SIGHUP {
            reload.store(true, ordering: .releasing)
        } else {
            terminate.store(true, ordering: .releasing)
        }
    }

    /// Whether a stop was asked for (SIGTERM, SIGINT); stays set.
    public var stopRequested: Bool { terminate.load(ordering: .acquiring) }

    /// Whether a reload was asked for (SIGHUP) since the last call.
    public func takeReloadRequest() -> Bool { reload.exchange(false, ordering: .acquiringAndReleasing) }
}
