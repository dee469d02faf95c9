// swift-tools-version: 6.0
import PackageDescription

/// `make check` (issue 43): the pure modules' suites in a package of their own, so that a
/// change is built and tested in under a minute. The sources are the main package's own
/// (linked here, never copied); nothing here links FFmpeg, ALSA, libgpiod, mosquitto or
/// libmicrohttpd (the password's hash, PasswordHashingTests, is make test's), and nothing
/// here starts a server or a board. The config reader's libyaml is
/// in: reading users' YAML is the config suites' whole subject. What the main package's
/// test targets hold beyond that (the device, the chip, the composition root) is left out
/// by name below and runs in `make test`.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "DelayboxCheck",
    targets: [
        .target(name: "DelayboxChecked", swiftSettings: strict),
        // The vocabulary every module shares: instants, clocks, sleepers, audio formats.
        .target(name: "DelayboxUnits", swiftSettings: strict),
        .target(name: "DelayboxEngine", dependencies: ["DelayboxChecked", "DelayboxUnits"], swiftSettings: strict),
        .target(name: "DelayboxLog", swiftSettings: strict),
        .target(name: "DelayboxAudio", dependencies: ["DelayboxEngine"], swiftSettings: strict),
        .target(name: "DelayboxMixer", dependencies: ["DelayboxEngine"], swiftSettings: strict),
        .target(name: "DelayboxSimulation", dependencies: ["DelayboxEngine", "DelayboxJSON"], swiftSettings: strict),
        .target(name: "DelayboxCommands", swiftSettings: strict),
        // JSON as the box writes it: a Codable value's fields in their order, one writer.
        .target(name: "DelayboxJSON", swiftSettings: strict),
        // The box's Wi-Fi when it is lost: the hotspot's policy and name, nmcli's words.
        .target(name: "DelayboxNetwork", dependencies: ["DelayboxUnits"], swiftSettings: strict),
        .target(
            name: "DelayboxConsole",
            dependencies: ["DelayboxChecked", "DelayboxCommands", "DelayboxJSON", "DelayboxNetwork"],
            swiftSettings: strict),
        .target(
            name: "DelayboxConfig",
            dependencies: [
                "DelayboxChecked", "DelayboxEngine", "DelayboxCommands", "DelayboxJSON", "DelayboxNetwork",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        .target(
            name: "DelayboxControls", dependencies: ["DelayboxCommands", "DelayboxConfig", "DelayboxUnits"],
            swiftSettings: strict),
        // What the console's commands mean and answer (the composition root hands in the rest).
        .target(
            name: "DelayboxAnswers",
            dependencies: [
                "DelayboxAudio", "DelayboxCommands", "DelayboxConfig", "DelayboxConsole", "DelayboxControls",
                "DelayboxEngine", "DelayboxJSON", "DelayboxLog", "DelayboxMQTT", "DelayboxNetwork", "DelayboxUnits",
            ], swiftSettings: strict),
        .target(
            name: "DelayboxMQTT",
            dependencies: [
                "DelayboxCommands", "DelayboxConfig", "DelayboxEngine", "DelayboxJSON", "DelayboxNetwork",
                "DelayboxUnits",
            ],
            swiftSettings: strict),
        .target(
            name: "DelayboxState",
            dependencies: ["DelayboxConfig", "DelayboxNetwork", "DelayboxSystem", "DelayboxUnits"],
            swiftSettings: strict),
        // The system as types: libc only (a descriptor, errno, poll, one wake-up).
        .target(name: "CSystem"),
        .target(name: "DelayboxSystem", dependencies: ["CSystem", "DelayboxUnits"], swiftSettings: strict),
        // The web page's requests, sessions, throttle and markup (its HTTP server is
        // libmicrohttpd's, in make test).
        .target(
            name: "DelayboxWeb",
            dependencies: ["DelayboxConfig", "DelayboxConsole", "DelayboxJSON", "DelayboxNetwork", "DelayboxUnits"],
            exclude: ["page"], swiftSettings: strict),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .target(
            name: "DelayboxConfigFile", dependencies: ["CYAML", "DelayboxConfig", "DelayboxJSON"], swiftSettings: strict
        ),
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
            name: "DelayboxMixerTests",
            dependencies: ["DelayboxMixer", "DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport"],
            exclude: ["Golden"], swiftSettings: strict),
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
        .testTarget(name: "DelayboxLogTests", dependencies: ["DelayboxLog"], swiftSettings: strict),
        .testTarget(name: "DelayboxSystemTests", dependencies: ["DelayboxSystem"], swiftSettings: strict),
        .testTarget(
            name: "DelayboxWebTests",
            dependencies: ["DelayboxWeb", "DelayboxConsole", "DelayboxJSON", "DelayboxUnits"],
            exclude: ["PasswordHashingTests.swift"], swiftSettings: strict),
        .testTarget(
            name: "DelayboxControlsTests",
            dependencies: [
                "DelayboxAnswers", "DelayboxControls", "DelayboxCommands", "DelayboxConfig", "DelayboxEngine",
                "DelayboxJSON", "DelayboxTestSupport",
            ],
            exclude: ["GPIOChipTests.swift"], swiftSettings: strict),
        .testTarget(
            name: "DelayboxConfigTests",
            dependencies: [
                "DelayboxConfig", "DelayboxConfigFile", "DelayboxEngine", "DelayboxJSON", "DelayboxMQTT",
                "DelayboxNetwork", "DelayboxState", "DelayboxSimulation", "DelayboxTestSupport", "DelayboxUnits",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DelayboxAudioTests",
            dependencies: ["DelayboxAudio", "DelayboxEngine", "DelayboxSimulation", "DelayboxTestSupport"],
            exclude: [
                "AudioPumpTests.swift", "CaptureTests.swift", "CuePlayerTests.swift", "EndToEndDelayTests.swift",
                "FileCaptureRig.swift",
                "OutputConformanceTests.swift", "OutputDeviceNameTests.swift", "WatchedOutput.swift",
            ],
            swiftSettings: strict),
    ]
)
