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
}
