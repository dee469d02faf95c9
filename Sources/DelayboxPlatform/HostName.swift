import DelayboxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's host name (`delaybox` if it has none): MQTT's client id and topics, and
/// the page's address (`NAME.local`, which avahi-daemon answers).
public enum HostName {
    public static func current() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "delaybox" }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "delaybox" : text
    }

    /// `/etc/machine-id` (systemd's: 32 hex digits made at the first boot); nil without one.
    public static func machineID() -> String? {
        guard let file = try? FileDescriptor.open("/etc/machine-id", O_RDONLY) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 64)
        guard let count = try? file.read(into: &bytes), count > 0 else { return nil }
        let id = String(decoding: bytes[..<count].prefix { $0 != 0x0A }, as: UTF8.self)
        return id.isEmpty ? nil : id
    }
}
