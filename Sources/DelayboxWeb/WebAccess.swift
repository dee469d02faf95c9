import DelayboxUnits
import Synchronization

/// Who may change the box through the page, shared by the page and the console's doors:
/// the password's store, when the window to choose the first password from the page
/// opened (the board's boot, or a `web reset`), and how many times the password was set or
/// removed elsewhere (the console, `delayboxctl`, the installer) — each time ends every
/// page session. Time is the caller's monotonic clock.
public final class WebAccess: Sendable {
    public let passwords: any PasswordStore
    private let state: Mutex<(setupOpened: Instant, generation: Int)>

    /// - Parameter started: when the window opened on the caller's clock (the appliance:
    ///   the board's boot, CLOCK_MONOTONIC's zero).
    public init(passwords: any PasswordStore, started: Instant) {
        self.passwords = passwords
        state = Mutex((started, 0))
    }

    /// When the page's window to choose the first password opened.
    public var setupOpened: Instant { state.withLock { $0.setupOpened } }

    /// How long the page may still choose the first password: zero once one is set or
    /// the window has closed.
    public func setupLeft(now: Instant) -> TimeAmount {
        guard passwords.storedHash() == nil else { return .zero }
        return max(.zero, setupOpened + WebApp.setupWindow - now)
    }

    /// Counts the passwords set and removed outside the page.
    public var generation: Int { state.withLock { $0.generation } }

    /// What is wrong with `password` as a new one (its length, its characters, a
    /// dictionary's guess), or nil.
    public func problem(withNew password: String) -> String? {
        WebPassword.problem(password) ?? passwords.weakness(of: password).map(WebPassword.weak)
    }

    /// Sets the password (from the console or the installer): nil, or what is wrong.
    public func set(password: String) -> String? {
        if let problem = problem(withNew: password) { return problem }
        guard let hash = passwords.makeHash(password) else { return "the password could not be hashed" }
        if let problem = passwords.store(hash: hash) { return "the password could not be kept: \(problem)" }
        state.withLock { $0.generation += 1 }
        return nil
    }

    /// A hand on the box (a long press, a remote's key): with no password set, the page
    /// lets one be chosen for the next 30 minutes, as after the board's boot. A set password
    /// is kept (forgetting it is `web reset`'s, at the console). Whether the window is open.
    public func openSetup(now: Instant) -> Bool {
        guard passwords.storedHash() == nil else { return false }
        state.withLock { $0.setupOpened = max($0.setupOpened, now) }
        return true
    }

    /// Forgets the password (its owner forgot it): the page lets a new one be chosen for
    /// the next 30 minutes, as after a start. Nil, or what went wrong.
    public func reset(now: Instant) -> String? {
        if let problem = passwords.remove() { return "the password could not be removed: \(problem)" }
        state.withLock { state in
            state.setupOpened = now
            state.generation += 1
        }
        return nil
    }
}
