// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// Layout (see docs/architecture.md):
/// - Pure logic modules import no C library and take time as a parameter:
///   `DelayboxEngine` (buffering, delay line, events, playout) and
///   `DelayboxSimulation` (simulated network, DAC and test codec on a manual clock).
/// - C adapters (FFmpeg, ALSA, libgpiod, libyaml, termios, evdev), one module each; the
///   modules the root composes, named for what they talk to (`DelayboxOutput`,
///   `DelayboxStream`, `DelayboxDoors`, `DelayboxClips`, `DelayboxPlatform`, `DelayboxService`).
/// - `DelayboxApp` is the one composition root: it owns the wiring and the playout.
/// - `delaybox` is the appliance's command line; `delaybox-bench` prints benchmark figures.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// libgpiod 2 (Debian 13, Raspberry Pi OS trixie) or 1.6 (Debian 12, bookworm): the two
/// APIs differ entirely, so the adapter compiles one of two files. Chosen from the
/// installed header (in `PKG_CONFIG_SYSROOT_DIR` when cross-compiling): only 2.x declares
/// `gpiod_line_request_read_edge_events`; `DELAYBOX_LIBGPIOD=1|2` overrides.
let libgpiod2: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let forced = environment["DELAYBOX_LIBGPIOD"] { return forced == "2" }
    let header = (environment["PKG_CONFIG_SYSROOT_DIR"] ?? "") + "/usr/include/gpiod.h"
    guard let text = try? String(contentsOfFile: header, encoding: .utf8) else { return true }
    return text.contains("gpiod_line_request_read_edge_events")
}()

let package = Package(
    name: "Delaybox",
    products: [
        .executable(name: "delaybox", targets: ["delaybox"]),
        .executable(name: "delaybox-bench", targets: ["delaybox-bench"]),
        .executable(name: "delayboxctl", targets: ["delayboxctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // Numbers from outside made into integers, or refused: no trap is reachable from input.
        .target(name: "DelayboxChecked", swiftSettings: strict),
        // The vocabulary every module shares: instants, clocks, sleepers, audio formats.
        .target(name: "DelayboxUnits", swiftSettings: strict),
        .target(name: "DelayboxEngine", dependencies: ["DelayboxChecked", "DelayboxUnits"], swiftSettings: strict),
        // Named loggers to one output (our own: swift-log needs tools 6.2, the boards' Swift is 6.0).
        .target(name: "DelayboxLog", swiftSettings: strict),
        // The output contract, the lock-free ring to the audio thread, conversion and volume.
        .target(name: "DelayboxAudio", dependencies: ["DelayboxEngine"], swiftSettings: strict),
        // The mixer (sources on one timeline, levels, limiter) and what plays through it
        // by the programme's state: mute music, ads, feedback sounds.
        .target(name: "DelayboxMixer", dependencies: ["DelayboxEngine"], swiftSettings: strict),
        // libasound, with shims for what Swift cannot import (the variadic error handler).
        .target(name: "CALSA", linkerSettings: [.linkedLibrary("asound")]),
        .target(
            name: "DelayboxALSA", dependencies: ["CALSA", "DelayboxAudio", "DelayboxEngine"], swiftSettings: strict),
        // The box's own FFmpeg, static: Debian's source configured with only what a radio
        // station streams in (tools/ffmpeg/build.sh; `make` puts its pkg-config file on
        // PKG_CONFIG_PATH). Without it the link fails: the system's FFmpeg is never taken.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "delaybox-ffmpeg"),
        .target(
            name: "DelayboxFFmpeg", dependencies: ["CFFmpeg", "DelayboxChecked", "DelayboxEngine"],
            swiftSettings: strict),
        .target(name: "DelayboxSimulation", dependencies: ["DelayboxEngine", "DelayboxJSON"], swiftSettings: strict),
        .target(name: "DelayboxCommands", swiftSettings: strict),
        .target(
            name: "DelayboxConfig",
            dependencies: [
                "DelayboxChecked", "DelayboxEngine", "DelayboxCommands", "DelayboxJSON", "DelayboxNetwork",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        // JSON as the box writes it: a Codable value's fields in their order, one writer.
        .target(name: "DelayboxJSON", swiftSettings: strict),
        // The box's Wi-Fi when it is lost: the hotspot's policy and name, nmcli's words (pure).
        .target(name: "DelayboxNetwork", dependencies: ["DelayboxUnits"], swiftSettings: strict),
        .target(
            name: "DelayboxConsole",
            dependencies: ["DelayboxChecked", "DelayboxCommands", "DelayboxJSON", "DelayboxNetwork"],
            swiftSettings: strict),
        // What the console's commands answer, as values every door renders (pure).
        .target(
            name: "DelayboxAnswers",
            dependencies: [
                "DelayboxAudio", "DelayboxCommands", "DelayboxConfig", "DelayboxConsole", "DelayboxControls",
                "DelayboxEngine", "DelayboxJSON", "DelayboxLog", "DelayboxMQTT", "DelayboxNetwork", "DelayboxUnits",
            ], swiftSettings: strict),
        // The system as types (what swift-system gives; it needs tools 6.1): a descriptor that
        // closes once, errno, EINTR retried in one place, poll's result checked, one wake-up.
        .target(name: "CSystem"),
        .target(name: "DelayboxSystem", dependencies: ["CSystem", "DelayboxUnits"], swiftSettings: strict),
        // termios: the console's serial line or pseudo-terminal.
        .target(name: "CTermios"),
        .target(
            name: "DelayboxSerial", dependencies: ["CTermios", "DelayboxSystem", "DelayboxUnits"], swiftSettings: strict
        ),
        .target(
            name: "DelayboxControls", dependencies: ["DelayboxCommands", "DelayboxConfig", "DelayboxUnits"],
            swiftSettings: strict),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .target(
            name: "DelayboxGPIO", dependencies: ["CGPIOD", "DelayboxControls", "DelayboxSystem"],
            swiftSettings: strict + (libgpiod2 ? [.define("LIBGPIOD2")] : [])),
        // Remote controls through the kernel's input layer (evdev): an IR receiver, a USB remote.
        .target(name: "CInput"),
        .target(
            name: "DelayboxInput", dependencies: ["CInput", "DelayboxControls", "DelayboxSystem"], swiftSettings: strict
        ),
        // The state file (atomic, durable writes); kept apart so its test helper starts fast.
        .target(
            name: "DelayboxState",
            dependencies: ["DelayboxConfig", "DelayboxNetwork", "DelayboxSystem", "DelayboxUnits"],
            swiftSettings: strict),
        // Board configs are YAML with comments, read by libyaml's parser with every node's line and column.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .target(
            name: "DelayboxConfigFile", dependencies: ["CYAML", "DelayboxConfig", "DelayboxJSON"], swiftSettings: strict
        ),
        // The operating system as the root uses it: threads, the monotonic clock and sleeping,
        // child processes, errno in words, unbuffered stdout and stderr, process figures.
        // adjtimex: whether the wall clock is synchronised (sys/timex.h is not in Glibc's module).
        .target(name: "CClock"),
        .target(
            name: "DelayboxPlatform", dependencies: ["CClock", "DelayboxUnits", "DelayboxSystem"],
            swiftSettings: strict
        ),
        // systemd and the journal: sd_notify, the journal's priorities, signals.
        .target(
            name: "DelayboxService",
            dependencies: ["DelayboxEngine", "DelayboxLog", "DelayboxOutput", "DelayboxPlatform", "DelayboxUnits"],
            swiftSettings: strict),
        // Everything between the engine and the jack: the kinds of output (ALSA, a WAV file,
        // null), the ring and the real-time audio thread, volume.
        .target(
            name: "DelayboxOutput",
            dependencies: [
                "DelayboxALSA", "DelayboxAudio", "DelayboxEngine", "DelayboxLog", "DelayboxPlatform", "DelayboxSystem",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        // MQTT's topics, Home Assistant's discovery, command payloads, when status is published.
        .target(
            name: "DelayboxMQTT",
            dependencies: [
                "DelayboxCommands", "DelayboxConfig", "DelayboxEngine", "DelayboxJSON", "DelayboxNetwork",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        // libmosquitto: the MQTT client's network loop on a thread of its own.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(
            name: "DelayboxMosquitto", dependencies: ["CMosquitto", "DelayboxEngine", "DelayboxPlatform"],
            swiftSettings: strict),
        // The web page: requests, sessions, the login throttle and the page itself (pure).
        .target(
            name: "DelayboxWeb",
            dependencies: ["DelayboxConfig", "DelayboxConsole", "DelayboxJSON", "DelayboxNetwork", "DelayboxUnits"],
            exclude: ["page"], swiftSettings: strict),
        // libmicrohttpd (the web door's HTTP server) and libcrypt (its password's hash), with
        // a shim for what Swift cannot call (the variadic MHD_start_daemon).
        .target(name: "CWeb", linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("crypt")]),
        .target(
            name: "DelayboxMicroHTTPD", dependencies: ["CWeb", "DelayboxSystem", "DelayboxWeb"], swiftSettings: strict),
        // The box's Wi-Fi through NetworkManager: the service's keeper (nmcli reads, its own
        // thread) and root's helper that makes the changes it asks for.
        .target(
            name: "DelayboxWiFi",
            dependencies: ["DelayboxConfig", "DelayboxLog", "DelayboxNetwork", "DelayboxPlatform", "DelayboxState"],
            swiftSettings: strict),
        // Root's venue helper: the hub's broker, chrony and Avahi files, and the hub a box follows.
        .target(
            name: "DelayboxVenue", dependencies: ["DelayboxMQTT", "DelayboxPlatform", "DelayboxState"],
            swiftSettings: strict),
        // The ways in, each on its own thread: the front panel (GPIO), the remote (evdev), the
        // serial console, the control socket and MQTT, and the inboxes they post to.
        .target(
            name: "DelayboxDoors",
            dependencies: [
                "DelayboxCommands", "DelayboxConfig", "DelayboxConsole", "DelayboxControls", "DelayboxJSON",
                "DelayboxGPIO", "DelayboxInput", "DelayboxSerial", "DelayboxPlatform",
                "DelayboxLog", "DelayboxMQTT", "DelayboxMosquitto", "DelayboxEngine",
                "DelayboxMicroHTTPD", "DelayboxNetwork", "DelayboxState", "DelayboxSystem", "DelayboxWeb",
                "DelayboxWiFi",
            ],
            swiftSettings: strict),
        // A channel's stream: the stream client's thread (FFmpeg), the line-in's (ALSA capture),
        // the demo's simulated connection, and the session that feeds them to an engine.
        .target(
            name: "DelayboxStream",
            dependencies: [
                "DelayboxALSA", "DelayboxChecked", "DelayboxAudio", "DelayboxEngine", "DelayboxFFmpeg",
                "DelayboxSimulation", "DelayboxPlatform",
            ], swiftSettings: strict),
        // Mute music and ads fetched over HTTP and kept on disk, and the delay read out by espeak-ng.
        .target(
            name: "DelayboxClips",
            dependencies: ["DelayboxEngine", "DelayboxFFmpeg", "DelayboxMixer", "DelayboxPlatform"],
            swiftSettings: strict),
        // What the box plays beside the stream, on the playout thread: the programme mix's
        // clips and read-outs, the controls' feedback sounds, the channels recorded meanwhile.
        .target(
            name: "DelayboxProgramme",
            dependencies: [
                "DelayboxAnswers", "DelayboxAudio", "DelayboxClips", "DelayboxCommands", "DelayboxEngine",
                "DelayboxLog",
                "DelayboxMixer", "DelayboxPlatform", "DelayboxStream", "DelayboxUnits",
            ], swiftSettings: strict),
        // The box's files while it plays, off the playout thread: the settings saved, the
        // config read again, `config save`'s and root's requests written, backups and undo,
        // the factory reset.
        .target(
            name: "DelayboxFiles",
            dependencies: [
                "DelayboxAnswers", "DelayboxConfig", "DelayboxConfigFile", "DelayboxConsole", "DelayboxDoors",
                "DelayboxEngine", "DelayboxLog", "DelayboxMQTT", "DelayboxNetwork", "DelayboxPlatform", "DelayboxState",
                "DelayboxSystem", "DelayboxUnits", "DelayboxWeb",
            ], swiftSettings: strict),
        .target(
            name: "DelayboxApp",
            dependencies: [
                "DelayboxAnswers", "DelayboxAudio", "DelayboxClips", "DelayboxCommands", "DelayboxConfig",
                "DelayboxConfigFile", "DelayboxConsole", "DelayboxControls", "DelayboxDoors", "DelayboxFiles",
                "DelayboxJSON",
                "DelayboxEngine", "DelayboxFFmpeg", "DelayboxLog", "DelayboxMicroHTTPD", "DelayboxMixer",
                "DelayboxMQTT", "DelayboxOutput",
                "DelayboxNetwork", "DelayboxPlatform", "DelayboxProgramme", "DelayboxService", "DelayboxSimulation",
                "DelayboxState", "DelayboxStream", "DelayboxWeb", "DelayboxWiFi",
            ], swiftSettings: strict),
        .executableTarget(
            name: "delaybox",
            dependencies: [
                "DelayboxAnswers", "DelayboxApp", "DelayboxSimulation", "DelayboxEngine", "DelayboxConfig",
                "DelayboxConfigFile", "DelayboxCtlCommands", "DelayboxFiles",
                "DelayboxOutput", "DelayboxPlatform", "DelayboxService", "DelayboxVenue", "DelayboxWiFi",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "delaybox-bench",
            dependencies: [
                "DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport", "DelayboxMixer", "DelayboxFFmpeg",
                "DelayboxMosquitto", "DelayboxStream",
            ],
            swiftSettings: strict),
        // delayboxctl's commands: its own executable, and `delaybox` called by that name.
        .target(
            name: "DelayboxCtlCommands",
            dependencies: [
                "DelayboxConsole", "DelayboxSystem", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "delayboxctl", dependencies: ["DelayboxCtlCommands"], swiftSettings: strict),
        // Test helper: writes settings until killed (the power-cut test).
        .executableTarget(
            name: "delaybox-settings-writer",
            dependencies: ["DelayboxState", "DelayboxConfig", "DelayboxTestSupport"],
            swiftSettings: strict),
        .target(
            name: "DelayboxTestSupport",
            dependencies: [
                "DelayboxEngine", "DelayboxSimulation", "DelayboxAudio", "DelayboxConfig", "DelayboxJSON",
                "DelayboxSystem",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxEngineTests",
            dependencies: ["DelayboxChecked", "DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxSimulationTests",
            dependencies: ["DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxFFmpegTests",
            dependencies: ["DelayboxFFmpeg", "DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxStreamTests",
            dependencies: [
                "DelayboxApp", "DelayboxClips", "DelayboxConfig", "DelayboxMixer", "DelayboxFFmpeg", "DelayboxEngine",
                "DelayboxOutput", "DelayboxProgramme", "DelayboxSimulation", "DelayboxStream", "DelayboxTestSupport",
            ],
            swiftSettings: strict),
        // The suites that measure the box against real time to the millisecond, on air: make
        // test runs this target alone, one suite at a time (docs/development.md).
        .testTarget(
            name: "DelayboxOnAirTests",
            dependencies: ["DelayboxConfig", "DelayboxFFmpeg", "DelayboxTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxConfigTests",
            dependencies: [
                "DelayboxConfig", "DelayboxConfigFile", "DelayboxEngine", "DelayboxJSON", "DelayboxMQTT",
                "DelayboxNetwork", "DelayboxState", "DelayboxSimulation",
                "DelayboxTestSupport", "DelayboxUnits",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxControlsTests",
            dependencies: [
                "DelayboxAnswers", "DelayboxControls", "DelayboxCommands", "DelayboxConfig", "DelayboxEngine",
                "DelayboxJSON", "DelayboxGPIO", "DelayboxTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxAnswersTests",
            dependencies: [
                "DelayboxAnswers", "DelayboxAudio", "DelayboxConfig", "DelayboxConsole", "DelayboxControls",
                "DelayboxEngine", "DelayboxLog", "DelayboxMQTT", "DelayboxNetwork", "DelayboxTestSupport",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxConsoleTests",
            dependencies: [
                "DelayboxConsole", "DelayboxCommands", "DelayboxNetwork", "DelayboxSimulation", "DelayboxUnits",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxAudioTests",
            dependencies: [
                "DelayboxAudio", "DelayboxALSA", "DelayboxApp", "DelayboxEngine", "DelayboxOutput",
                "DelayboxSimulation",
                "DelayboxTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxMixerTests",
            dependencies: ["DelayboxMixer", "DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport"],
            exclude: ["Golden"],
            swiftSettings: strict),
        .testTarget(name: "DelayboxLogTests", dependencies: ["DelayboxLog"], swiftSettings: strict),
        .testTarget(name: "DelayboxSystemTests", dependencies: ["DelayboxSystem"], swiftSettings: strict),
        .testTarget(
            name: "DelayboxWebTests",
            dependencies: [
                "DelayboxWeb", "DelayboxConsole", "DelayboxJSON", "DelayboxMicroHTTPD", "DelayboxState",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        // Whole appliances (`Playout` through `Appliance`'s own wiring) in virtual time.
        .testTarget(
            name: "DelayboxApplianceTests",
            dependencies: [
                "DelayboxApp", "DelayboxAudio", "DelayboxConsole", "DelayboxControls", "DelayboxDoors", "DelayboxFiles",
                "DelayboxEngine", "DelayboxMicroHTTPD", "DelayboxNetwork", "DelayboxOutput",
                "DelayboxPlatform", "DelayboxProgramme", "DelayboxService", "DelayboxSimulation", "DelayboxState",
                "DelayboxStream", "DelayboxTestSupport", "DelayboxWeb", "DelayboxWiFi",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxCLITests",
            dependencies: [
                "DelayboxTestSupport", "DelayboxAnswers", "DelayboxApp", "DelayboxAudio", "DelayboxConfig",
                "DelayboxConsole",
                "DelayboxState", "DelayboxSimulation", "DelayboxDoors", "DelayboxPlatform",
                "DelayboxConfigFile", "DelayboxFiles", "DelayboxMQTT", "DelayboxNetwork", "DelayboxUnits",
                "DelayboxVenue",
            ],
            swiftSettings: strict),
    ]
)
