import DelayboxConfig
import DelayboxConfigFile
import FoundationEssentials

/// The saved config (`config.yaml`: `config save`'s and the venue's) as the document a
/// change is laid over.
enum SavedConfig {
    /// Why the saved config cannot take a change: it no longer reads as YAML (edited by
    /// hand, a torn card). The change is refused, so the owner's other saved keys are not
    /// replaced by the change alone.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// The file at `path` as written: nil when there is none yet; an empty mapping when it
    /// holds only comments.
    static func document(at path: String) throws(Unreadable) -> ConfigNode? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Unreadable(description: "\(path) cannot be read as text: nothing changed")
        }
        var diagnostics: [ConfigDiagnostic] = []
        guard let document = ConfigFile.parse(text, file: path, emptyAllowed: true, diagnostics: &diagnostics),
            !diagnostics.contains(where: { $0.severity == .error })
        else {
            let first = diagnostics.first { $0.severity == .error }.map(\.description) ?? "\(path): no YAML"
            throw Unreadable(description: "\(first) — mend or delete the file: nothing changed")
        }
        return document
    }
}
