import DelayboxConfig
import DelayboxJSON
import FoundationEssentials

/// Board config files: YAML read with libyaml (`YAMLReader`) into a `ConfigNode` tree that keeps every
/// key's and value's line and column. A file may `extends:` another (a path relative to
/// it, e.g. a shared base); a site file laid over the board file overrides it.
///
/// YAML's implicit typing (`no` as false, `0755` as octal) does not apply: every scalar
/// stays text, and the schema reads it as the type it wants.
public enum ConfigFile {
    /// The board config at `path`, with its bases and then `site` (if it exists) laid over.
    public static func load(_ path: String, site: String? = nil) -> (
        config: BoardConfig?, diagnostics: [ConfigDiagnostic]
    ) {
        load(path, overlays: site.map { [$0] } ?? [])
    }

    /// The board config at `path` with `overlays` laid over it in order (those that do
    /// not exist are skipped): the site file, then what the console saved.
    public static func load(_ path: String, overlays: [String]) -> (
        config: BoardConfig?, diagnostics: [ConfigDiagnostic]
    ) {
        let (document, diagnostics) = document(path, overlays: overlays)
        guard let document else { return (nil, diagnostics) }
        let read = BoardConfig.read(document)
        return (read.config, diagnostics + read.diagnostics)
    }

    /// The document `load` reads, as written (every value with its file and line); nil
    /// after a syntax error.
    public static func document(_ path: String, overlays: [String] = []) -> (
        document: ConfigNode?, diagnostics: [ConfigDiagnostic]
    ) {
        var diagnostics: [ConfigDiagnostic] = []
        guard var document = resolve(path, chain: [], diagnostics: &diagnostics) else { return (nil, diagnostics) }
        for overlay in overlays where FileManager.default.fileExists(atPath: overlay) {
            if let overrides = resolve(overlay, chain: [], emptyAllowed: true, diagnostics: &diagnostics) {
                document = document.merged(with: overrides)
            }
        }
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        return (document, diagnostics)
    }

    /// `node` as YAML that reads back the same: mappings in block style, sequences in
    /// flow style, every scalar double-quoted (so no value is mistaken for a number,
    /// boolean or comment).
    public static func yaml(_ node: ConfigNode, indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        guard case .mapping(let entries, _) = node else { return pad + flow(node) + "\n" }
        // An empty document is written `{}`: nothing at all is no YAML document (the fuzzer
        // found `{}` written back as an empty file that only an overlay's reading forgives).
        guard !entries.isEmpty else { return pad + "{}\n" }
        return entries.map { entry in
            let key = quoted(entry.key.name)
            // YAML allows an implicit key of at most 1024 characters (libyaml refuses a longer
            // one: "mapping values are not allowed"); a longer one is written as an explicit
            // key (`? key` then `: value`). The fuzzer found a key that read fine and grew
            // past that when quoted, and one whose combining marks made its Swift character
            // count (graphemes) less than libyaml's (code points).
            let explicit = key.unicodeScalars.count > Self.longestImplicitKey
            let opening = explicit ? pad + "? " + key + "\n" + pad + ":" : pad + key + ":"
            if case .mapping(let inner, _) = entry.value, !inner.isEmpty {
                return opening + "\n" + yaml(entry.value, indent: indent + 2)
            }
            return opening + " " + flow(entry.value) + "\n"
        }.joined()
    }

    /// The longest implicit key YAML allows (characters: code points, as libyaml counts).
    static let longestImplicitKey = 1_024

    private static func flow(_ node: ConfigNode) -> String {
        switch node {
        case .scalar(let text, _): quoted(text)
        case .sequence(let items, _): "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let entries, _):
            "{"
                + entries.map { entry in
                    let key = quoted(entry.key.name)
                    return (key.unicodeScalars.count > longestImplicitKey ? "? " + key + " : " : key + ": ")
                        + flow(entry.value)
                }.joined(separator: ", ") + "}"
        }
    }

    private static func quoted(_ text: String) -> String { JSONText.quoted(text) }

    /// One file with everything it extends, bases first. `emptyAllowed`: a file with
    /// nothing but comments is an empty mapping (a site file that sets nothing yet, as
    /// the package installs it) instead of an error.
    static func resolve(
        _ path: String, chain: [String], emptyAllowed: Bool = false, diagnostics: inout [ConfigDiagnostic]
    ) -> ConfigNode? {
        let location = SourceLocation(file: path, line: 1, column: 1)
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.path
        guard !chain.contains(canonical) else {
            diagnostics.append(
                ConfigDiagnostic(
                    .error, at: location, "extends itself: " + (chain + [canonical]).joined(separator: " -> ")))
            return nil
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            let why =
                FileManager.default.fileExists(atPath: path)
                ? "cannot be read (permissions or not UTF-8)" : "does not exist"
            diagnostics.append(ConfigDiagnostic(.error, at: location, "the config file \(why)"))
            return nil
        }
        guard let document = parse(text, file: path, emptyAllowed: emptyAllowed, diagnostics: &diagnostics) else {
            return nil
        }
        guard let extends = document["extends"] else { return document }
        // One base, or a list laid over each other in order (a board, then a remote's keys).
        let bases: [ConfigNode] = if case .sequence(let items, _) = extends { items } else { [extends] }
        var merged: ConfigNode?
        for item in bases {
            guard case .scalar(let base, let baseLocation) = item else {
                diagnostics.append(
                    ConfigDiagnostic(.error, at: item.location, "'extends' names a file, or a list of files"))
                return nil
            }
            let basePath =
                base.hasPrefix("/")
                ? base : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(base).path
            var inner: [ConfigDiagnostic] = []
            guard let resolved = resolve(basePath, chain: chain + [canonical], diagnostics: &inner) else {
                // Say where the broken `extends` is, then what is wrong with the base.
                diagnostics.append(ConfigDiagnostic(.error, at: baseLocation, "cannot extend '\(base)'"))
                diagnostics += inner
                return nil
            }
            diagnostics += inner
            merged = merged.map { $0.merged(with: resolved) } ?? resolved
        }
        let own = document.removing("extends")
        return merged.map { $0.merged(with: own) } ?? own
    }

    /// YAML text to a located tree; syntax errors become diagnostics. Text with no
    /// document (only comments) is an empty mapping when `emptyAllowed`, else an error.
    public static func parse(
        _ text: String, file: String, emptyAllowed: Bool = false, diagnostics: inout [ConfigDiagnostic]
    )
        -> ConfigNode?
    {
        let start = SourceLocation(file: file, line: 1, column: 1)
        do {
            guard let root = try YAMLReader.read(text, file: file) else {
                if emptyAllowed { return .mapping([], start) }
                diagnostics.append(ConfigDiagnostic(.error, at: start, "the config file is empty"))
                return nil
            }
            return root
        } catch {
            diagnostics.append(
                ConfigDiagnostic(
                    .error, at: SourceLocation(file: file, line: error.line, column: error.column), error.problem))
            return nil
        }
    }
}
