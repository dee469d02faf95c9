import DelayboxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A remote-control input problem in words an installer can act on.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }

    /// No input device has the name the board config gives; `present` are those there are.
    static func notFound(_ name: String, present: [String]) -> InputError {
        InputError(
            "no input device named '\(name)' (the kernel has: \(present.isEmpty ? "none" : present.map { "'\($0)'" }.joined(separator: ", "))"
                + "; an IR receiver needs its dtoverlay=gpio-ir line in config.txt)")
    }

    /// No wake-up descriptor could be made for the remote's thread (out of descriptors).
    public static func noWakeup(_ error: Errno) -> InputError {
        InputError("cannot make the remote's wake-up descriptor: \(error)")
    }

    /// The message for a failed call on `path`, from its errno.
    static func from(errno code: Int32, path: String) -> InputError {
        switch code {
        case ENOENT, ENODEV: InputError("input device \(path) is gone (unplugged, or its driver unloaded)")
        case EACCES, EPERM: InputError("no permission to read \(path): add the service user to the 'input' group")
        case EBUSY: InputError("\(path) is held by another program (EVIOCGRAB: lircd, a media centre)")
        default: InputError("\(path): \(Errno(code))")
        }
    }
}
