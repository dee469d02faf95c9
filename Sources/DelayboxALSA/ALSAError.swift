import CALSA
import DelayboxAudio
import Glibc

/// Turns an ALSA return code into `OutputError`, with alsa-lib's own explanation when it
/// gave one (captured per thread instead of going to stderr).
enum ALSAError {
    /// Installs the capture of alsa-lib's error lines; idempotent, process-wide.
    static let captureErrors: Void = dbx_alsa_capture_errors()

    /// Throws when `rc` is negative. The corresponding C function is named by `call`.
    static func check(_ rc: Int32, _ call: String, device: String) throws(OutputError) {
        guard rc < 0 else { return }
        throw error(rc, call, device: device)
    }

    static func error(_ rc: Int32, _ call: String, device: String) -> OutputError {
        var reason = "\(device): \(call): \(String(cString: snd_strerror(rc)))"
        let detail = String(cString: dbx_alsa_take_last_error())
        if !detail.isEmpty { reason += " (\(detail))" }
        return -rc == EINVAL ? .unsupported(reason: reason) : .deviceLost(reason: reason)
    }
}
