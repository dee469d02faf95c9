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
    /// The corresponding C functions are `av_log_set_callback` and `av_log_set_level`.
    public static func install(level: Int32 = AV_LOG_WARNING, sink: @escaping @Sendable (String) -> Void) {
        self.sink.withLock { $0 = sink }
        av_log_set_level(level)
        av_log_set_callback { context, level, format, arguments in
            guard let format, let arguments else { return }
            FFmpegLog.forward(context: context, level: level, format: format, arguments: arguments)
        }
    }

    private static func forward(context: UnsafeMutableRawPointer?, level: Int32, format: UnsafePointer<CChar>,
                                arguments: CVaListPointer) {
        guard level <= av_log_get_level() else { return }
        var buffer = [CChar](repeating: 0, count: 1_024)
        var printPrefix: Int32 = 1
        av_log_format_line2(context, level, format, arguments, &buffer, Int32(buffer.count), &printPrefix)
        var line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while line.last == "\n" { line.removeLast() }
        guard !line.isEmpty else { return }
        if level <= AV_LOG_ERROR { remember(line) }
        let current = FFmpegLog.sink.withLock { $0 }
        current?(line)
    }

    private static func remember(_ line: String) {
        var text = Substring(line)
        if text.first == "[", let close = text.firstIndex(of: "]") { text = text[text.index(after: close)...].drop { $0 == " " } }
        let message = String(text)
        lastErrors.withLock { $0[pthread_self()] = message }
    }
}
