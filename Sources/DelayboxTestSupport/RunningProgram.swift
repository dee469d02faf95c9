#if canImport(Glibc)
    import Glibc
#endif

/// A started program as a test holds it, whichever way it was started: Foundation's
/// `Process` (`LaunchedProgram`) or posix_spawn (`SpawnedProcess`, for a program that closes
/// what it inherits).
public protocol RunningProgram: AnyObject {
    /// Its process identifier.
    var identifier: Int32 { get }
    var isRunning: Bool { get }
    /// Its exit status, or the signal that ended it (see `diedOfSignal`); once it has ended.
    var terminationStatus: Int32 { get }
    /// Whether a signal ended it.
    var diedOfSignal: Bool { get }
    /// Sends it `signal` (SIGTERM as systemd stops a service, SIGHUP to reload, SIGSTOP).
    func signal(_ signal: Int32)
    /// Waits for it to end; its exit status.
    @discardableResult func waitUntilExit() -> Int32
    /// Ends it at once (SIGKILL) and reaps it.
    func kill()
}

extension RunningProgram {
    /// Asks it to stop (SIGTERM) and waits up to `seconds`; kills it if it is still
    /// running then. Whether it ended by itself in time.
    @discardableResult
    public func stop(within seconds: Double) -> Bool {
        signal(SIGTERM)
        let ended = Eventually.holds(within: seconds) { !self.isRunning }
        kill()
        return ended
    }
}
