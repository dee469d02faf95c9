import DelayboxTestSupport
import Foundation
import Synchronization

/// The web door's cost (docs/web.md, docs/performance.md): two appliances side by side on
/// the demo channel into ALSA's `null` device in the boards' periods, one serving the page
/// and one without it. With no page open: wake-ups and CPU of the door's thread, and the
/// whole process's against the one without (`web_idle_*`), and the resident memory added.
/// With a page open (an event stream read by curl): a change made as the knob makes it
/// (`delayboxctl volume N`, its start-up included) until the stream shows it —
/// `web_status_to_page_ms`, the median of 30 (target 200 ms). And what the door adds to the
/// program: libmicrohttpd's file and the door's own object code.
enum WebFigures {
    static func figures(delaybox: String) throws {
        let executables = URL(fileURLWithPath: delaybox).deletingLastPathComponent()
        let port = try LoopbackPort.unused()
        func board(_ web: String) -> (URL) -> String { { _ in Bench.demoBoard + web + "\n" } }
        let withPage = try BoxUnderTest(
            executables: executables, name: "bench-web", board: board("web:\n  port: \(port)"))
        let without = try BoxUnderTest(executables: executables, name: "bench-noweb", board: board(""))
        defer {
            withPage.stop()
            without.stop()
        }
        Thread.sleep(forTimeInterval: 10)  // both started and playing
        let seconds = 30.0
        guard let startA = ProcessSample(pid: withPage.process.identifier),
            let startB = ProcessSample(pid: without.process.identifier)
        else {
            throw Bench.BenchError("an appliance ended early: \(withPage.log.suffix(400)) \(without.log.suffix(400))")
        }
        Thread.sleep(forTimeInterval: seconds)
        guard let endA = ProcessSample(pid: withPage.process.identifier),
            let endB = ProcessSample(pid: without.process.identifier)
        else {
            throw Bench.BenchError("an appliance ended early")
        }
        let wakeA = endA.wakeupsPerSecond(since: startA, seconds: seconds),
            wakeB = endB.wakeupsPerSecond(since: startB, seconds: seconds)
        print("web_idle_wakeups_per_s: \(Bench.format(wakeA["delaybox-web"] ?? 0))")
        print(
            "web_idle_cpu_ms_per_s: \(Bench.format(endA.cpuMillisecondsPerSecond(since: startA, seconds: seconds)["delaybox-web"] ?? 0))"
        )
        print("web_idle_process_wakeups_per_s: \(Bench.format(wakeA.values.reduce(0, +)))")
        print("web_idle_process_wakeups_per_s_without_page: \(Bench.format(wakeB.values.reduce(0, +)))")
        print("web_rss_mb: \(Bench.format(Double(endA.residentBytes) / 1_048_576))")
        print("web_rss_mb_without_page: \(Bench.format(Double(endB.residentBytes) / 1_048_576))")
        print("web_rss_mb_added: \(Bench.format(Double(endA.residentBytes - endB.residentBytes) / 1_048_576))")

        // A page open: the status stream, read line by line.
        let pipe = Pipe()
        let stream = try LaunchedProgram(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-sN", "http://127.0.0.1:\(port)/api/events"],
            output: .pipe(pipe))
        defer { stream.kill() }
        let shown = Mutex<Int?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        let reader = Thread {
            var pending = Data()
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    guard line.hasPrefix("data: "), let volume = StatusVolume.read(Array(line.dropFirst(6).utf8)) else {
                        continue
                    }
                    shown.withLock { $0 = volume }
                    arrived.signal()
                }
            }
        }
        reader.start()
        guard arrived.wait(timeout: .now() + 10) == .success else {
            throw Bench.BenchError("the page's stream sent no status in 10 s")
        }
        var times: [Double] = []
        for trip in 0..<30 {
            let volume = 20 + trip % 50
            let start = DispatchTime.now()
            _ = try withPage.ctl(["volume", String(volume)])
            while shown.withLock({ $0 }) != volume {
                guard arrived.wait(timeout: .now() + 2) == .success else {
                    throw Bench.BenchError("volume \(volume) not shown on the page within 2 s")
                }
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
            Thread.sleep(forTimeInterval: 0.1 + Double(trip % 7) * 0.013)
        }
        times.sort()
        print("web_status_to_page_ms: \(Bench.format(times[times.count / 2]))")
        print("web_status_to_page_ms_p90: \(Bench.format(times[times.count * 9 / 10]))")
        let library = [
            "/usr/lib/x86_64-linux-gnu/libmicrohttpd.so.12", "/usr/lib/aarch64-linux-gnu/libmicrohttpd.so.12",
        ]
        .compactMap {
            try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: $0).resolvingSymlinksInPath().path)[
                .size] as? Int
        }.first
        if let library { print("web_libmicrohttpd_kb: \(Bench.format(Double(library) / 1_024))") }
        // The door's own code: its modules' object files in this build (the program links them whole).
        let objects = ["DelayboxWeb", "DelayboxMicroHTTPD", "CWeb"].flatMap { module -> [Int] in
            let folder = executables.appendingPathComponent("\(module).build")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".o") }.compactMap {
                try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size] as? Int
            }
        }
        print("web_code_kb: \(Bench.format(Double(objects.reduce(0, +)) / 1_024))")
    }
}
