import DelayboxConfig
import DelayboxTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DelayboxFiles

/// Saving the settings off the playout thread: a disk that takes its time holds nobody up,
/// the newest settings win, and a disk that fails is tried again until it works.
@Suite(.timeLimit(.minutes(10))) struct SettingsSaverTests {
    /// A disk the test controls: each write waits for `open`, or fails while `failing`.
    final class Disk: Sendable {
        let written = Mutex<[Int]>([])
        let failing = Mutex(0)
        let gate = DispatchSemaphore(value: 0)
        let slow: Bool
        init(slow: Bool) { self.slow = slow }
        func write(_ settings: Settings) throws {
            if slow { gate.wait() }
            let fail = failing.withLock { count in
                defer { count = max(0, count - 1) }; return count > 0
            }
            if fail { throw CocoaError(.fileWriteNoPermission) }
            written.withLock { $0.append(settings.volume) }
        }
    }

    static func settings(volume: Int) -> Settings {
        Settings(delay: .milliseconds(5_000), volume: volume, channel: "Demo")
    }

    static func wait(until condition: () -> Bool) -> Bool { Eventually.holds(within: 5, every: 0.005, condition) }

    @Test func aSlowDiskHoldsNobodyUpAndTheNewestSettingsWin() {
        let disk = Disk(slow: true)
        let saver = SettingsSaver(write: disk.write)
        let asked = DispatchTime.now()
        saver.save(Self.settings(volume: 10))
        saver.save(Self.settings(volume: 20))
        saver.save(Self.settings(volume: 30))
        let took = Double(DispatchTime.now().uptimeNanoseconds - asked.uptimeNanoseconds) / 1e6
        #expect(took < 50, "asking to save waited \(took) ms on the disk")
        disk.gate.signal()  // the first write (10, or 30 if the thread was slower) ends
        disk.gate.signal()
        #expect(
            Self.wait { disk.written.withLock { $0.last } == 30 },
            "the newest settings were written: \(disk.written.withLock { $0 })")
        #expect(
            disk.written.withLock { $0 }.count <= 2, "not every intermediate value: \(disk.written.withLock { $0 })")
        disk.gate.signal()
        saver.finish()
    }

    @Test func aFailedSaveIsTriedAgainUntilItWorks() {
        let disk = Disk(slow: false)
        disk.failing.withLock { $0 = 3 }
        let saver = SettingsSaver(write: disk.write, firstRetryMs: 10)
        saver.save(Self.settings(volume: 42))
        #expect(Self.wait { disk.written.withLock { $0 } == [42] }, "written once the disk works again")
        #expect(disk.failing.withLock { $0 } == 0)
        saver.finish()
    }

    @Test func whatWaitsIsWrittenWhenTheBoxStops() {
        let disk = Disk(slow: false)
        disk.failing.withLock { $0 = 1 }
        let saver = SettingsSaver(write: disk.write, firstRetryMs: 60_000)
        saver.save(Self.settings(volume: 7))
        #expect(Self.wait { disk.failing.withLock { $0 } == 0 }, "the first attempt failed")
        saver.finish()
        #expect(disk.written.withLock { $0 } == [7], "written at the stop, not a minute later")
    }
}
