import DelayboxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A GPIO problem in words an installer can act on.
public struct GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }

    /// The message for a failed libgpiod call on `what`, from its errno.
    static func from(errno code: Int32, chip: String, what: String, consumer: String? = nil) -> GPIOError {
        switch code {
        case ENOENT, ENODEV:
            return GPIOError(
                "GPIO chip '\(chip)' not found (`gpiodetect` lists the chips; is the board's overlay loaded?)")
        case EACCES, EPERM:
            return GPIOError(
                "no permission for \(what) on '\(chip)': add the service user to the 'gpio' group (the .deb's udev rule gives the group access)"
            )
        case EBUSY:
            return GPIOError(
                "\(what) on '\(chip)' is busy" + (consumer.map { ": already used by '\($0)'" } ?? "")
                    + " (another program, or a kernel driver the config.txt overlays enable)")
        case EINVAL:
            return GPIOError("\(what) does not exist on '\(chip)' or cannot be set up that way")
        default:
            return GPIOError("\(what) on '\(chip)': \(Errno(code))")
        }
    }
}
