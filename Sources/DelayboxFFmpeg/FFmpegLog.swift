import CFFmpeg
import Glibc
import Synchronization

/// Routes FFmpeg's own messages (av_log) to Delaybox's log instead of stderr.
///
/// FFmpeg's log is process-wide, so this is too: one sink for the process. The C callback
/// cannot capture context, hence the static sink behind a lock.
public enum FFmpegLog {
    private static let sink = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// The last error-level message per thread since its `beginCall()`: FFmpeg logs on the
    /// thread that made the call, and often says there what its return code does not.
    private static let lastErrors = Mutex<[pthread_t: String]>([:])

    /// Forgets this thread's last error message, before a call whose failure should carry
    /// only its own.
    static func beginCall() { lastErrors.withLock { $0[pthread_self()] = nil } }

    /// This thread's last error message since `beginCall()`, without FFmpeg's
    /// `[component @ address]` prefix.
    static func lastError() -> String? { lastErrors.withLock { $0[pthread_self()] } }

    /// Sends messages at `level` (an `AV_LOG_*` value, default warnings) or more severe to
    /// `sink`, one line each, without FFmpeg's trailing newline.
    /// The corresponding C functions are `av_log_set_callback` and `av_log_set_level`
    /// (through the shim, which formats each line: see `dbx_av_log_callback`).
    public static func install(level: Int32 = AV_LOG_WARNING, sink: @escaping @Sendable (String) -> Void) {
        self.sink.withLock { $0 = sink }
        dbx_av_log_install(level)
    }

    /// One formatted line from the shim's av_log callback.
    static func forward(level: Int32, line formatted: UnsafePointer<CChar>) {
        var line = String(cString: formatted)
        while line.last == "\n" { line.removeLast() }
        guard !line.isEmpty else { return }
        if level <= AV_LOG_ERROR { remember(line) }
        let current = FFmpegLog.sink.withLock { $0 }
        current?(line)
    }

    private static func remember(_ line: String) {
        var text = Substring(line)
        if text.first == "[", let close = text.firstIndex(of: "]") {
            text = text[text.index(after: close)...].drop { $0 == " " }
        }
        let message = String(text)
        lastErrors.withLock { $0[pthread_self()] = message }
    }
}

/// Called by the C shim's av_log callback (CFFmpeg's `dbx_av_log_callback`) with each line.
@_cdecl("dbx_ffmpeg_log_line")
func ffmpegLogLine(level: Int32, line: UnsafePointer<CChar>) {
    FFmpegLog.forward(level: level, line: line)
}
