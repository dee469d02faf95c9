import DelayboxConsole
import Dispatch
import Synchronization

/// Console requests waiting for the playout thread, which owns the engine and answers
/// them between two periods; the asking thread (console, control socket) waits for the
/// answer with a timeout, so a stuck appliance cannot hang a door.
final class ConsoleInbox: Sendable {
    final class Pending: Sendable {
        let request: ConsoleRequest
        private let answer = Mutex<String?>(nil)
        private let answered = DispatchSemaphore(value: 0)

        init(_ request: ConsoleRequest) { self.request = request }

        func reply(_ text: String) {
            answer.withLock { $0 = text }
            answered.signal()
        }

        func wait(seconds: Double) -> String? {
            guard answered.wait(timeout: .now() + seconds) == .success else { return nil }
            return answer.withLock { $0 }
        }
    }

    private let pending = Mutex<[Pending]>([])

    /// Asks the playout thread; nil if it did not answer within `seconds`.
    func ask(_ request: ConsoleRequest, seconds: Double = 2) -> String? {
        let item = Pending(request)
        pending.withLock { $0.append(item) }
        return item.wait(seconds: seconds)
    }

    /// The answer to one console line, as both doors (serial console, control socket)
    /// give it: help here, everything else from the playout thread; nil for an empty line.
    func answer(line: String) -> String? {
        switch ConsoleLanguage.parse(line) {
        case nil: return nil
        case .failure(let error)?: return "error: \(error)"
        case .success(let request)?:
            if case .help(let topic) = request.action {
                switch ConsoleLanguage.help(topic) {
                case .success(let text): return text
                case .failure(let error): return "error: \(error)"
                }
            }
            return ask(request) ?? "error: the appliance did not answer within 2 s"
        }
    }

    /// The requests waiting, for the playout thread.
    func drain() -> [Pending] {
        pending.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }
}
