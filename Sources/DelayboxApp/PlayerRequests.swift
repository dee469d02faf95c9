import Synchronization

/// What another thread (a console, a test) asks of a running `StreamPlayer`; the player
/// takes the requests between two periods.
public final class PlayerRequests: Sendable {
    public enum Request: Sendable, Equatable {
        case nextChannel
        case selectChannel(String)
        case stop
    }

    private let pending = Mutex<[Request]>([])

    public init() {}

    public func post(_ request: Request) { pending.withLock { $0.append(request) } }

    /// Takes the requests posted since the last call, in order.
    func take() -> [Request] {
        pending.withLock { requests in
            defer { requests.removeAll(keepingCapacity: true) }
            return requests
        }
    }
}
