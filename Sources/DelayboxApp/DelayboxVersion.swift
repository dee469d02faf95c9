import DelayboxCommands
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The version printed by `delaybox --version` and `version`, and told to MQTT (the group's
/// release topic, Home Assistant): the package's own (`0.1.0+git20261125.221500.5ae9f52~deb13`,
/// written by deploy/make-deb.sh to /usr/share/delaybox/version) when this is the
/// installed program, else the source's. A group's boxes compare it with apt's versions:
/// the source's alone named nothing apt could install.
public enum DelayboxVersion {
    /// The source's version.
    public static let source = "0.1.0"

    public static let string: String = installed() ?? source

    /// The package's version, for the program installed at /usr/bin (not a build elsewhere
    /// on a machine that also has the package).
    static func installed(program: String = running(), file: String = "/usr/share/delaybox/version") -> String? {
        guard program == "/usr/bin/delaybox",
            let data = FileManager.default.contents(atPath: file)
        else { return nil }
        let line = String(decoding: data.prefix(100), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return PackageVersion.isValid(line) ? line : nil
    }

    /// This program's file (delayboxctl is a link to delaybox).
    static func running() -> String {
        var path = [CChar](repeating: 0, count: 4_096)
        let count = readlink("/proc/self/exe", &path, path.count - 1)
        return count > 0 ? String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}
