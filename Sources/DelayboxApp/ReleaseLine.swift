import DelayboxPlatform
import DelayboxUnits
import Synchronization

/// The package healer's last line about this box's release (`ReleaseStatus`, `status`'s
/// `release`), kept here and read from its file off the playout thread: `status` is asked
/// every second while the page is open and at every MQTT status, and the playout thread's
/// render is due within the ring's 40 ms — a file read there waits on the SD card when an
/// upgrade is writing to it, which is exactly when this line changes.
final class ReleaseLine: Sendable {
    private let line = Mutex<String?>(nil)
    /// How often the file is read again (by `Playout`, on the saver's thread): soon enough
    /// that `status` asked after the healer wrote says what it wrote (a tiny file, from the
    /// page cache).
    static let refreshInterval = TimeAmount.milliseconds(500)

    /// Read once at start, before playout runs.
    init() { refresh() }

    /// The line as last read; nil on a box not installed from the package.
    var current: String? { line.withLock { $0 } }

    /// Reads the file again (on a thread that may wait on the disk).
    func refresh() {
        let read = ReleaseStatus.read()
        line.withLock { $0 = read }
    }
}
