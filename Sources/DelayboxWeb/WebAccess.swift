import Synchronization

/// Who may change the box through the page, shared by the page and the console's doors:
/// the password's store, when the window to choose the first password from the page
/// opened (the start, or a `web reset`), and how many times the password was set or
/// removed elsewhere (the console, `delayboxctl`, the installer) — each time ends every
/// page session. Time is the caller's monotonic clock (ns).
public final class WebAccess: Sendable {
    public let passwords: any PasswordStore
    private let state: Mutex<(setupOpenedNs: Int64, generation: Int)>

    public init(passwords: any PasswordStore, startedNs: Int64) {
        self.passwords = passwords
        state = Mutex((startedNs, 0))
    }

    /// When the page's window to choose the first password opened (ns).
    public var setupOpenedNs: Int64 { state.withLock { $0.setupOpenedNs } }

    /// How long the page may still choose the first password (ns): 0 once one is set or
    /// the window has closed.
    public func setupLeftNs(now: Int64) -> Int64 {
        guard passwords.storedHash() == nil else { return 0 }
        return max(0, setupOpenedNs + WebApp.setupWindowNs - now)
    }

    /// Counts the passwords set and removed outside the page.
    public var generation: Int { state.withLock { $0.generation } }

    /// Sets the password (from the console or the installer): nil, or what is wrong.
    public func set(password: String) -> String? {
        if let problem = WebPassword.problem(password) { return problem }
        guard let hash = passwords.makeHash(password) else { return "the password could not be hashed" }
        if let problem = passwords.store(hash: hash) { return "the password could not be kept: \(problem)" }
        state.withLock { $0.generation += 1 }
        return nil
    }

    /// Forgets the password (its owner forgot it): the page lets a new one be chosen for
    /// the next 30 minutes, as after a start. Nil, or what went wrong.
    public func reset(now: Int64) -> String? {
        if let problem = passwords.remove() { return "the password could not be removed: \(problem)" }
        state.withLock { state in
            state.setupOpenedNs = now
            state.generation += 1
        }
        return nil
    }
}
