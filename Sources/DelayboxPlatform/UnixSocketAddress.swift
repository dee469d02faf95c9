#if canImport(Glibc)
    import Glibc
#endif

extension sockaddr_un {
    /// The address of the Unix socket at `path`, and its length for `bind`/`sendto`; a
    /// leading `@` names an abstract socket (as systemd writes `$NOTIFY_SOCKET`). Nil when
    /// the path does not fit.
    public static func unix(_ path: String) -> (address: sockaddr_un, length: socklen_t)? {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < 108 else { return nil }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count))
    }
}
