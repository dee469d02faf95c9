import DelayboxCommands
import DelayboxConfig
import DelayboxJSON
import DelayboxUnits
import FoundationEssentials

/// A venue's update in stages (docs/mqtt.md): `update --canary BOX` on the group's topic
/// makes BOX update first; every other box of the group waits here, watching BOX's release
/// on `delaybox/group/<group>/release/<BOX>`, and updates only once BOX plays a release —
/// then to exactly the version BOX plays. A canary that rolled back, failed to update or
/// said nothing within `patience` holds the others where they are.
public struct StagedUpdate: Sendable, Equatable {
    /// How long the canary has to update and prove its release: `apt-get update`, the
    /// download over a venue's Wi-Fi, the 60 s check and a roll-back fit well within it.
    public static let patience = TimeAmount.minutes(30)

    public enum Outcome: Sendable, Equatable {
        /// Still waiting; what the canary said last, if anything.
        case waiting(String)
        /// The canary plays `version`: this box updates to it.
        case go(version: String)
        /// The canary's update went wrong, or it said nothing in time: this box stays.
        case held(String)
    }

    public let canary: String
    private let started: Instant
    /// The first report heard: the broker's retained one from before the command, which says
    /// nothing about the update (a "1.2 playing" from last week is no verdict).
    private var baseline: MemberRelease?
    public private(set) var outcome: Outcome

    /// - Parameter baseline: the canary's report this box had heard when the command came
    ///   (its retained one, as the group's topics keep it); nil when none yet, and the
    ///   first report heard is taken for it. Taken from what was heard before, not from
    ///   a subscription made now: a canary quick to fail would otherwise publish its
    ///   verdict before the broker sent the old report again, and the verdict would be
    ///   taken for the old news.
    public init(canary: String, now: Instant, baseline: MemberRelease? = nil) {
        self.canary = canary
        started = now
        self.baseline = baseline
        outcome = .waiting(
            baseline.map { "\(canary) says '\($0.release)' (from before the update)" } ?? "no word from \(canary) yet")
    }

    /// A report from the canary (its retained release message, as it changes).
    public mutating func heard(_ report: MemberRelease, now: Instant) -> Outcome {
        guard case .waiting = outcome else { return outcome }
        guard let first = baseline else {
            baseline = report
            outcome = .waiting("\(canary) says '\(report.release)' (from before the update)")
            return tick(now: now)
        }
        guard report != first else { return tick(now: now) }
        switch report.verdict {
        case .healthy where !PackageVersion.isValid(report.version):
            // Anyone who may publish on the group's topics can say anything here: only a
            // version apt would take is followed.
            outcome = .held(
                "\(canary) reports the version '\(report.version.prefix(80))', which is not a package version")
        case .healthy: outcome = .go(version: report.version)
        case .failed: outcome = .held("\(canary)'s update went wrong: \(report.release)")
        case .underWay: outcome = .waiting("\(canary) says '\(report.release)'")
        }
        return tick(now: now)
    }

    /// The time passing: a canary silent past its patience holds this box.
    public mutating func tick(now: Instant) -> Outcome {
        if case .waiting(let last) = outcome, now - started > Self.patience {
            outcome = .held(
                "\(canary) did not play a new release within \(Self.patience.wholeSeconds / 60) min (last: \(last))")
        }
        return outcome
    }

    /// The canary's release as this box's Debian release has it: a venue may mix boxes on
    /// Debian 12 and 13, whose packages of one commit differ only in their `~debN` (a box
    /// on 12 cannot install the canary's `…~deb13`). Unchanged when either has none.
    public static func release(_ canary: String, forBoxRunning own: String) -> String {
        guard let theirs = canary.ranges(of: "~deb").last, let ours = own.ranges(of: "~deb").last else { return canary }
        return String(canary[..<theirs.lowerBound]) + String(own[ours.lowerBound...])
    }

    /// What this box's status says of it (`update`).
    public var summary: String {
        switch outcome {
        case .waiting(let last): return "waiting for canary \(canary): \(last)"
        case .go(let version): return "updating to \(version), which canary \(canary) plays"
        case .held(let reason): return "held: \(reason)"
        }
    }
}

/// What a box of a group says of its release, retained on
/// `delaybox/group/<group>/release/<box>`: the version it runs and the package healer's
/// last line (`checking 1.3`, `1.3 playing`, `rolled back: …`, `up to date: 1.3`).
public struct MemberRelease: Codable, Sendable, Equatable {
    public let box: String
    public let version: String
    public let release: String

    public init(box: String, version: String, release: String) {
        self.box = box
        self.version = version
        self.release = release
    }

    /// A report as its JSON payload says it, nil for anything else (at most 1 KB).
    public static func read(_ payload: [UInt8]) -> MemberRelease? {
        guard payload.count <= 1_024 else { return nil }
        return try? JSONDecoder().decode(MemberRelease.self, from: Data(payload))
    }

    public var json: String { JSONText.encode(answer: self) }

    enum Verdict { case healthy, failed, underWay }

    /// The healer's line read (deploy/debian/release-check writes them): playing or up to
    /// date is a release that plays; rolled back, failed, not playing is a failure.
    var verdict: Verdict {
        let line = release.lowercased()
        if line.hasPrefix("rolled back") || line.hasPrefix("update failed") || line.contains("did not play")
            || line.contains("failed its check")
        {
            return .failed
        }
        if line.hasPrefix("up to date") || line.hasSuffix(" playing") { return .healthy }
        return .underWay
    }
}
