import DelayboxChecked
import DelayboxCommands

/// Collects the problems found while reading a config.
final class DiagnosticLog {
    private(set) var diagnostics: [ConfigDiagnostic] = []
    /// The keys read as secrets (`mqtt.password`): what no door shows.
    private(set) var secretKeys: Set<String> = []

    func secret(_ key: String) { secretKeys.insert(key) }

    func error(_ location: SourceLocation, _ message: String) {
        diagnostics.append(ConfigDiagnostic(.error, at: location, message))
    }
    func warning(_ location: SourceLocation, _ message: String) {
        diagnostics.append(ConfigDiagnostic(.warning, at: location, message))
    }
}

/// Reads one mapping of a config as the schema wants it: each value in its type, range and
/// unit, every problem reported at its location. Keys the schema never asked for are
/// reported by `finish()` as unknown, with the closest known key as a suggestion.
final class ConfigReader {
    let node: ConfigNode?
    /// Where this mapping sits, e.g. `gpio.buttons.play`, for messages.
    let path: String
    let log: DiagnosticLog
    private var known: [String] = []

    /// - Parameter node: the mapping, or nil when the file leaves the section out.
    init(_ node: ConfigNode?, path: String, log: DiagnosticLog) {
        self.log = log
        self.path = path
        if let node, case .mapping = node {
            self.node = node
        } else {
            if let node { log.error(node.location, "'\(path)' must be a mapping of keys to values") }
            self.node = nil
        }
    }

    var isPresent: Bool { node != nil }
    var location: SourceLocation? { node?.location }

    /// The raw value of `key`, marking the key as known.
    func value(_ key: String) -> ConfigNode? {
        known.append(key)
        return node?[key]
    }

    func string(_ key: String) -> String? {
        guard let value = value(key) else { return nil }
        guard case .scalar(let text, _) = value else {
            log.error(value.location, "'\(qualified(key))' must be a single value")
            return nil
        }
        return text
    }

    /// A value no door may show (a password): its key is remembered as a secret whether or
    /// not the value is valid, so `config get` and every refusal hide it either way.
    func secret(_ key: String) -> Secret? {
        log.secret(qualified(key))
        return string(key).map(Secret.init)
    }

    func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = string(key), let location = node?[key]?.location else { return nil }
        guard let number = Int(text.replacingUnderscores()) else {
            log.error(location, "'\(qualified(key))' must be a whole number; got '\(text)'")
            return nil
        }
        guard range.contains(number) else {
            log.error(location, "'\(qualified(key))' is \(number); allowed \(range.lowerBound)-\(range.upperBound)")
            return nil
        }
        return number
    }

    func bool(_ key: String) -> Bool? {
        guard let text = string(key), let location = node?[key]?.location else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            log.error(location, "'\(qualified(key))' must be true or false; got '\(text)'")
            return nil
        }
    }

    /// A duration written with its unit (`100 ms`, `1.5 s`, `5 min`), in milliseconds.
    func milliseconds(_ key: String, in range: ClosedRange<Int64>) -> Int64? {
        guard let text = string(key), let location = node?[key]?.location else { return nil }
        guard let value = Self.parseDuration(text) else {
            log.error(
                location,
                "'\(qualified(key))' must be a duration with its unit (e.g. 100 ms, 1.5 s, 5 min); got '\(text)'")
            return nil
        }
        guard range.contains(value) else {
            log.error(
                location,
                "'\(qualified(key))' is \(Self.describe(value)); allowed \(Self.describe(range.lowerBound)) to \(Self.describe(range.upperBound))"
            )
            return nil
        }
        return value
    }

    /// A duration with its unit under `key`, or a whole number of milliseconds under `msKey`
    /// (`output_latency_ms: 200`, the name other tools and the issue texts use); both at once
    /// is refused, since a reader could not tell which one the box took.
    func milliseconds(_ key: String, orNumberUnder msKey: String, in range: ClosedRange<Int64>) -> Int64? {
        let withUnit = milliseconds(key, in: range)
        guard let number = int(msKey, in: Int(range.lowerBound)...Int(range.upperBound)) else { return withUnit }
        if node?[key] != nil, let location = node?[msKey]?.location {
            log.error(location, "'\(qualified(key))' and '\(qualified(msKey))' are one setting: give one of them")
            return nil
        }
        return Int64(number)
    }

    /// One of a fixed set of words (`S32_LE`, `pull-up`, `jump_to_live`).
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) -> T? where T.RawValue == String {
        guard let text = string(key), let location = node?[key]?.location else { return nil }
        if let value = T(rawValue: text) { return value }
        let allowed = T.allCases.map(\.rawValue)
        log.error(
            location,
            Suggestion.message(
                "'\(qualified(key))' cannot be '\(text)' (allowed: \(allowed.joined(separator: ", ")))",
                for: text, among: allowed))
        return nil
    }

    func section(_ key: String) -> ConfigReader { ConfigReader(value(key), path: qualified(key), log: log) }

    func list(_ key: String) -> [ConfigNode] {
        guard let value = value(key) else { return [] }
        guard case .sequence(let items, _) = value else {
            log.error(value.location, "'\(qualified(key))' must be a list")
            return []
        }
        return items
    }

    /// A list of single values (`ads_from: [club.example, cdn.example]`).
    func strings(_ key: String) -> [String] {
        list(key).compactMap { item in
            guard case .scalar(let text, _) = item else {
                log.error(item.location, "'\(qualified(key))' must be a list of single values")
                return nil
            }
            return text
        }
    }

    /// The entries of this mapping as named sections (`buttons: {play: {...}, ...}`).
    func namedSections() -> [(name: String, reader: ConfigReader)] {
        guard case .mapping(let entries, _)? = node else { return [] }
        known.append(contentsOf: entries.map(\.key.name))
        return entries.map { ($0.key.name, ConfigReader($0.value, path: qualified($0.key.name), log: log)) }
    }

    /// Reports every key of this mapping that was never asked for.
    func finish() {
        guard case .mapping(let entries, _)? = node else { return }
        for entry in entries where !known.contains(entry.key.name) {
            log.error(
                entry.key.location,
                Suggestion.message(
                    "unknown key '\(qualified(entry.key.name))'",
                    for: entry.key.name, among: known))
        }
    }

    func qualified(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func parseDuration(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: " ")
        let units: [(String, Double)] = [("ms", 1), ("min", 60_000), ("s", 1_000)]
        for (unit, scale) in units where trimmed.hasSuffix(unit) {
            let number = trimmed.dropLast(unit.count).trimmingCharacters(in: " ")
            // `1e308 s` must be a range error, not a trap.
            guard let value = Double(number) else { return nil }
            return Checked.scaled(value, by: scale, in: 0...999_999_999_999_999)
        }
        return nil
    }

    static func describe(_ milliseconds: Int64) -> String {
        if milliseconds >= 60_000, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000) min" }
        if milliseconds >= 1_000, milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000) s" }
        return "\(milliseconds) ms"
    }
}

extension String {
    func replacingUnderscores() -> String { String(filter { $0 != "_" }) }

    func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String { String(self).trimmingCharacters(in: set) }
}
