import Foundation
import Testing

/// What the modules may import, checked in their sources: the pure modules no C library,
/// no Foundation or Dispatch and no clock of the system (time comes from an injected
/// clock); no module the firmware ships all of Foundation (its ICU data is 30 MB of each
/// program: docs/deploy.md).
@Suite(.timeLimit(.minutes(10))) struct ModuleImportsTests {
    static let sources = CommandLineTests.root.appendingPathComponent("Sources")
    /// Logic apart from hardware (docs/architecture.md).
    static let pure = [
        "DelayboxUnits", "DelayboxChecked", "DelayboxEngine", "DelayboxSimulation", "DelayboxMixer", "DelayboxAudio",
        "DelayboxConfig",
        "DelayboxWeb",
        "DelayboxCommands", "DelayboxConsole", "DelayboxControls", "DelayboxJSON", "DelayboxLog", "DelayboxMQTT",
        "DelayboxNetwork", "DelayboxAnswers",
    ]
    /// What a pure module may import besides the other pure modules: atomics and locks,
    /// Foundation's essentials (JSON, URLs, data), and the C library for maths.
    static let pureMayImport: Set<String> = ["Synchronization", "FoundationEssentials", "Glibc"]
    /// What reads the system's time (a pure module takes it as a parameter).
    static let systemClocks = [
        "clock_gettime(", "gettimeofday(", "Date()", "DispatchTime", "ContinuousClock", "SuspendingClock",
    ]
    /// Modules that are not shipped: the tests' support and the benchmark.
    static let notShipped: Set<String> = ["DelayboxTestSupport", "delaybox-bench", "delaybox-settings-writer"]

    /// Each Swift file of `module` (its folders' too: `DelayboxConsole/Commands`), with its text.
    static func files(of module: String) throws -> [(name: String, text: String)] {
        let directory = sources.appendingPathComponent(module)
        return try swiftFiles(in: directory)
            .map { ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The Swift files under `directory`, as paths relative to it, sorted.
    static func swiftFiles(in directory: URL) throws -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: directory.path) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The modules `text` imports (`import X`, `@testable import X`, `import X  // why`).
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                words[..<at].allSatisfy({ $0.hasPrefix("@") })
            else { return nil }
            return String(words[at + 1])
        }
    }

    @Test(arguments: pure)
    func aPureModuleImportsNoCLibraryAndReadsNoClock(module: String) throws {
        let allowed = Self.pureMayImport.union(Self.pure)
        for (name, text) in try Self.files(of: module) {
            let foreign = Self.imports(text).filter { !allowed.contains($0) }
            #expect(foreign.isEmpty, "\(module)/\(name) imports \(foreign)")
            let clocks = Self.systemClocks.filter { text.contains($0) }
            #expect(clocks.isEmpty, "\(module)/\(name) reads the system's time: \(clocks)")
        }
    }

    @Test func noShippedModuleImportsAllOfFoundation() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            !Self.notShipped.contains($0)
        }
        for module in modules {
            for (name, text) in try Self.files(of: module) {
                #expect(
                    !Self.imports(text).contains("Foundation"),
                    "\(module)/\(name) imports Foundation: FoundationEssentials or the C library")
            }
        }
    }

    /// The composition root builds, starts and wires (issue 69): what it decides lives in
    /// the modules beside it, so its size may only fall. Its lines, blank and comment
    /// lines too, at most `rootLines`.
    static let rootLines = 1_500

    @Test func theCompositionRootStaysSmall() throws {
        let lines = try Self.files(of: "DelayboxApp").map {
            $0.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        #expect(lines.reduce(0, +) <= Self.rootLines, "DelayboxApp holds \(lines.reduce(0, +)) lines")
    }

    /// Durations are `TimeAmount` but on the wire and in config keys (issue 69): the
    /// identifiers that carry milliseconds in their name (`delayMs`, `timeoutMs`, …) in
    /// Sources may only become fewer — 1,017 on 2026-12-01, 1,012 once ServiceHealth and
    /// ProgrammeDesk took `TimeAmount`, 1,011 with the delivery models, 752 once the
    /// simulation's scenario and network and the engine's own settings did, 661 with the
    /// stall timeouts, the mixer's ramps, the buttons' debounce and the page's taps, 608 with
    /// poll's waits (`Poll.Wait`), 569 with the delay step, 545 with the output's period and
    /// the initial buffer, 517 with the output's own latency and the audio held, 241 with the
    /// delay itself (settings, engine status, answers: `@InMilliseconds` on the wire); 300
    /// was the aim. Lower this as they go.
    static let millisecondNamesAtMost = 241

    @Test func durationsInMillisecondsOnlyBecomeFewer() throws {
        var count = 0
        for module in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path) {
            for (_, text) in try Self.files(of: module) {
                let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                count +=
                    words.filter { word in
                        word.count > 2 && word.hasSuffix("Ms")
                            && word.dropLast(2).last.map { $0.isLowercase || $0.isNumber } == true
                    }.count
            }
        }
        #expect(count <= Self.millisecondNamesAtMost, "\(count) identifiers in milliseconds")
        print("identifiers in milliseconds in Sources: \(count) (at most \(Self.millisecondNamesAtMost))")
    }

    /// `make check`'s package (tools/check) links the pure modules and their suites from here:
    /// what they import must be there too, or be left out by name in its manifest — checked
    /// here, so that `make test` says when a change would break `make check`.
    @Test func theCheckPackageHoldsWhatItsModulesAndSuitesImport() throws {
        let check = CommandLineTests.root.appendingPathComponent("tools/check")
        let manifest = try String(contentsOf: check.appendingPathComponent("Package.swift"), encoding: .utf8)
        let modules = Set(
            try FileManager.default.contentsOfDirectory(atPath: check.appendingPathComponent("Sources").path))
        let system: Set<String> = ["Testing", "Foundation", "FoundationEssentials", "Glibc", "Synchronization"]
        func foreign(_ file: URL) throws -> [String] {
            // (Lower case: a Python line in a Swift string, as the Icecast server's.)
            Self.imports(try String(contentsOf: file, encoding: .utf8))
                .filter { $0.first?.isUppercase == true && !modules.contains($0) && !system.contains($0) }
        }
        for folder in ["Sources", "Tests"] {
            let linked = check.appendingPathComponent(folder)
            for target in try FileManager.default.contentsOfDirectory(atPath: linked.path) {
                let directory = linked.appendingPathComponent(target).resolvingSymlinksInPath()
                for name in try Self.swiftFiles(in: directory) {
                    let outside = try foreign(directory.appendingPathComponent(name))
                    #expect(
                        outside.isEmpty || (folder == "Tests" && manifest.contains("\"\(name)\"")),
                        "\(target)/\(name) imports \(outside), which make check's package does not build: link it there or leave the file out by name"
                    )
                }
            }
        }
    }

    /// docs/architecture.md's table of `delaybox run`'s threads names every thread the
    /// sources start (`WorkerThread(name:)`, `PlatformThread.start(name:)`), and no other.
    @Test func theThreadTableNamesEveryThreadStarted() throws {
        let pattern = try NSRegularExpression(pattern: #"(?:WorkerThread\(|PlatformThread\.start\()name: "([a-z-]+)""#)
        var started: Set<String> = []
        for module in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        where !Self.notShipped.contains(module) {
            for file in (try? Self.files(of: module)) ?? [] {
                let range = NSRange(file.text.startIndex..., in: file.text)
                for match in pattern.matches(in: file.text, range: range) {
                    started.insert(String(file.text[Range(match.range(at: 1), in: file.text)!]))
                }
            }
        }
        #expect(started.count >= 12, "threads found: \(started.sorted())")
        let architecture = try String(
            contentsOf: CommandLineTests.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let lines = architecture.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex(of: "| thread | owns | hands over |"))
        let table = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        // A row's first cell: a thread's name in backticks (the playout is the main thread).
        let listed = Set(
            table.compactMap { row in
                row.split(separator: "|").first.flatMap {
                    $0.hasPrefix(" `") ? $0.split(separator: "`").dropFirst().first : nil
                }
            }.map(String.init))
        #expect(listed == started, "the table lists \(listed.sorted()); the sources start \(started.sorted())")
    }

    @Test func importsAreReadAsWritten() {
        #expect(
            Self.imports(
                "import Glibc  // sin()\n@testable import DelayboxEngine\nlet important = 1\n// import Foundation\n")
                == ["Glibc", "DelayboxEngine"])
    }
}
