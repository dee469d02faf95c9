extension ConsoleCommand {
    /// The reports: a name alone, answered from what the box knows, changing nothing; a
    /// listener may read each (`ConsoleAnswers.reports` answers them).
    static let events = report(
        name: "events", summary: "recent stream events, with stream time and firing time", doors: .listener)
    static let gpio = report(name: "gpio", summary: "a live view of the input lines", doors: .listener)
    static let remote = report(
        name: "remote", summary: "the remote's device and the last keys it sent", doors: .listener)
    static let system = report(
        name: "system", summary: "the machine: addresses, Wi-Fi signal and missed beacons, CPU temperature, uptime",
        doors: .listener)
    static let uptime = report(
        name: "uptime", summary: "how long the box has run since its start, and the machine since its boot",
        doors: .listener)
    static let version = report(name: "version", summary: "the firmware version and its FFmpeg's", doors: .listener)
}
