import Glibc

/// A thread's real-time scheduling: SCHED_FIFO at a priority, asked for by the thread itself.
/// The kernel grants it to root, and to an unprivileged process within its RLIMIT_RTPRIO
/// (the service's `LimitRTPRIO=80`); elsewhere the thread stays at normal priority and says so.
public enum RealTimePriority {
    /// SCHED_RESET_ON_FORK (sched.h; not imported into Swift): the threads this thread starts
    /// begin at normal priority instead of inheriting its own — libdispatch and libmosquitto
    /// start workers from whichever thread first gives them work, and the web server's or a
    /// stream client's worker at real-time priority could starve the rest of the board.
    static let resetOnFork: Int32 = 0x4000_0000

    /// Puts the calling thread at SCHED_FIFO `priority` (1-99); returns whether the kernel
    /// granted it.
    public static func raiseCallingThread(to priority: Int32) -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = priority
        // On Linux, pid 0 is the calling thread (sched_setscheduler(2)): not the process.
        return sched_setscheduler(0, SCHED_FIFO | resetOnFork, &parameters) == 0
    }

    /// The calling thread's SCHED_FIFO or SCHED_RR priority; 0 at normal priority.
    public static func ofCallingThread() -> Int32 {
        let policy = sched_getscheduler(0) & ~resetOnFork
        guard policy == SCHED_FIFO || policy == SCHED_RR else { return 0 }
        var parameters = sched_param()
        return sched_getparam(0, &parameters) == 0 ? parameters.sched_priority : 0
    }

}
