/// A config document as written, with the location of every key and value: what the file
/// reader produces and what validation reads. Independent of the file format.
public indirect enum ConfigNode: Sendable, Equatable {
    /// A key of a mapping, with where it was written.
    public struct Key: Sendable, Equatable {
        public var name: String
        public var location: SourceLocation
        public init(_ name: String, at location: SourceLocation) {
            self.name = name
            self.location = location
        }
    }

    case scalar(String, SourceLocation)
    case mapping([(key: Key, value: ConfigNode)], SourceLocation)
    case sequence([ConfigNode], SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .scalar(_, let location), .mapping(_, let location), .sequence(_, let location): location
        }
    }

    /// The value under `key` of a mapping.
    public subscript(key: String) -> ConfigNode? {
        guard case .mapping(let entries, _) = self else { return nil }
        return entries.last { $0.key.name == key }?.value
    }

    /// `override` laid over `self`: mappings merge key by key (recursively), anything else
    /// is replaced, so a board file refines its base and a site file refines the board.
    public func merged(with override: ConfigNode) -> ConfigNode {
        guard case .mapping(let base, let location) = self, case .mapping(let top, _) = override else {
            return override
        }
        var entries = base
        for entry in top {
            if let index = entries.firstIndex(where: { $0.key.name == entry.key.name }) {
                entries[index] = (entry.key, entries[index].value.merged(with: entry.value))
            } else {
                entries.append(entry)
            }
        }
        return .mapping(entries, location)
    }

    /// The node at a dotted path (`audio.device`, `channels.0.url`: sequences by index),
    /// or, when the path leads nowhere, the deepest node found and the part not found.
    public func lookup(_ path: String) -> (
        node: ConfigNode?, deepest: (node: ConfigNode, path: String), missing: String?
    ) {
        var node = self, walked: [Substring] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            let next: ConfigNode? =
                switch node {
                case .mapping: node[String(part)]
                case .sequence(let items, _): Int(part).flatMap { items.indices.contains($0) ? items[$0] : nil }
                case .scalar: nil
                }
            guard let next else { return (nil, (node, walked.joined(separator: ".")), String(part)) }
            node = next
            walked.append(part)
        }
        return (node, (node, path), nil)
    }

    /// The smallest override that, laid over `self` with `merged(with:)`, sets the
    /// dotted `path` to `value` (a sequence is replaced whole, so its override carries all
    /// of it); nil when the path runs into a scalar or past a sequence's end.
    public func override(setting path: String, to value: ConfigNode) -> ConfigNode? {
        override(setting: path.split(separator: ".", omittingEmptySubsequences: false), to: value)
    }

    private func override(setting path: [Substring], to value: ConfigNode) -> ConfigNode? {
        guard let first = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch self {
        case .mapping(_, let location):
            let child = self[String(first)] ?? .mapping([], location)
            guard let inner = rest.isEmpty ? value : child.override(setting: rest, to: value) else { return nil }
            return .mapping([(Key(String(first), at: value.location), inner)], location)
        case .sequence(var items, let location):
            guard let index = Int(first), items.indices.contains(index),
                let inner = items[index].override(setting: rest, to: value)
            else { return nil }
            items[index] = items[index].merged(with: inner)
            return .sequence(items, location)
        case .scalar:
            return nil
        }
    }

    /// A copy in which the node at each dotted path of `secrets` (whatever it holds: a
    /// value, a mistaken mapping) is `Secret.shown`: what `config get` and its refusals read,
    /// so a secret is said to be set and never shown.
    public func redacting(_ secrets: Set<String>, at path: String = "") -> ConfigNode {
        if secrets.contains(path), !path.isEmpty { return .scalar(Secret.shown, location) }
        let prefix = path.isEmpty ? "" : path + "."
        switch self {
        case .scalar: return self
        case .mapping(let entries, let location):
            return .mapping(
                entries.map { ($0.key, $0.value.redacting(secrets, at: prefix + $0.key.name)) }, location)
        case .sequence(let items, let location):
            return .sequence(items.enumerated().map { $1.redacting(secrets, at: prefix + String($0)) }, location)
        }
    }

    /// A copy without the nodes at the dotted `paths` (a backup leaves the secrets out); a
    /// mapping left empty by them goes too (`mqtt:` with nothing under it reads as a mistake).
    public func removing(paths: Set<String>, at path: String = "") -> ConfigNode {
        let prefix = path.isEmpty ? "" : path + "."
        switch self {
        case .scalar: return self
        case .mapping(let entries, let location):
            var kept: [(key: Key, value: ConfigNode)] = []
            for entry in entries where !paths.contains(prefix + entry.key.name) {
                let inner = entry.value.removing(paths: paths, at: prefix + entry.key.name)
                if inner.isEmptyMapping, !entry.value.isEmptyMapping { continue }
                kept.append((entry.key, inner))
            }
            return .mapping(kept, location)
        case .sequence(let items, let location):
            return .sequence(
                items.enumerated().filter { !paths.contains(prefix + String($0.offset)) }
                    .map { $1.removing(paths: paths, at: prefix + String($0)) }, location)
        }
    }

    /// Every scalar with its dotted path (`channels.0.url`), in the document's order.
    public func leaves(at path: String = "") -> [(path: String, value: String)] {
        let prefix = path.isEmpty ? "" : path + "."
        switch self {
        case .scalar(let text, _): return [(path, text)]
        case .mapping(let entries, _): return entries.flatMap { $0.value.leaves(at: prefix + $0.key.name) }
        case .sequence(let items, _): return items.enumerated().flatMap { $1.leaves(at: prefix + String($0)) }
        }
    }

    private var isEmptyMapping: Bool {
        if case .mapping(let entries, _) = self { entries.isEmpty } else { false }
    }

    /// One line for a maintainer: a scalar's text, a mapping's keys, a sequence's length.
    public var summary: String {
        switch self {
        case .scalar(let text, _): text
        case .mapping(let entries, _): "{" + entries.map(\.key.name).joined(separator: ", ") + "}"
        case .sequence(let items, _): "[\(items.count) item\(items.count == 1 ? "" : "s")]"
        }
    }

    /// A copy without the entry `key` (e.g. `extends`, once resolved).
    public func removing(_ key: String) -> ConfigNode {
        guard case .mapping(let entries, let location) = self else { return self }
        return .mapping(entries.filter { $0.key.name != key }, location)
    }

    public static func == (a: ConfigNode, b: ConfigNode) -> Bool {
        switch (a, b) {
        case let (.scalar(x, l), .scalar(y, m)): return x == y && l == m
        case let (.sequence(x, l), .sequence(y, m)): return x == y && l == m
        case let (.mapping(x, l), .mapping(y, m)):
            return l == m && x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}
