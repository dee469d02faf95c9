import DelayboxUnits
import Glibc

/// The appliance's threads, started on POSIX threads directly (Foundation's `Thread` would
/// bring all of Foundation and its ICU data, 30 MB, into the firmware).
public enum PlatformThread {
    /// Starts `body` on a new detached thread named `name` (as `top -H` and
    /// /proc/PID/task/TID/comm show it; at most 15 bytes are kept), with a stack of
    /// `stackBytes` (the system's default, 8 MB, when nil).
    public static func start(name: String, stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { context in
                let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                PlatformThread.name(start.name)
                start.body()
                return nil
            }, start)
        // Only a system out of threads or memory refuses; the appliance cannot run without them.
        precondition(result == 0, "pthread_create(\(name)): \(ErrorText.system(result))")
    }

    /// Names the calling thread through /proc (pthread_setname_np is not in Swift's Glibc).
    private static func name(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(file, bytes, bytes.count)
        close(file)
    }

    /// Sleeps the calling thread for `amount` (the whole time, across signals).
    public static func sleep(for amount: TimeAmount) {
        guard amount > .zero else { return }
        let perSecond = Instant.nanosecondsPerSecond
        var request = timespec(
            tv_sec: Int(amount.nanoseconds / perSecond), tv_nsec: Int(amount.nanoseconds % perSecond))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    private final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }
}
