import CInput
import DelayboxControls
import DelayboxSystem
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// A kernel input device (evdev) that the remote's keys come from: an IR receiver that
/// rc-core decodes into keys by its keymap, a USB remote, a keyboard. Opened for this
/// program alone, its events timed on the monotonic clock.
public final class InputDevice {
    /// Where the kernel lists input devices and their names.
    public static let sysfs = "/sys/class/input"

    public let path: String
    /// The device's own name (`gpio_ir_recv`).
    public let name: String
    private let file: FileDescriptor

    /// Opens `device`: a path, or the name of one of the kernel's input devices.
    public init(_ device: String) throws(InputError) {
        path = try Self.resolve(device)
        let opened = dbx_input_open(path, 1)
        guard opened >= 0 else { throw InputError.from(errno: errno, path: path) }
        file = FileDescriptor(adopting: opened)
        var buffer = [CChar](repeating: 0, count: 256)
        name = dbx_input_name(opened, &buffer, Int32(buffer.count)) >= 0 ? Self.text(buffer) : path
    }

    /// The path of `device`: itself when it is one, else that of the input device of that name.
    static func resolve(_ device: String) throws(InputError) -> String {
        if device.hasPrefix("/") { return device }
        let named = present()
        guard let match = named.first(where: { $0.name == device }) else {
            throw InputError.notFound(device, present: named.map(\.name))
        }
        return match.path
    }

    /// The kernel's event devices and their names (`/sys/class/input/eventN/device/name`).
    static func present() -> [(path: String, name: String)] {
        guard let directory = opendir(sysfs) else { return [] }
        defer { closedir(directory) }
        var found: [(path: String, name: String)] = []
        while let entry = readdir(directory) {
            let node = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard node.hasPrefix("event"), let name = Self.firstLine("\(sysfs)/\(node)/device/name") else { continue }
            found.append(("/dev/input/\(node)", name))
        }
        return found.sorted { $0.path.count != $1.path.count ? $0.path.count < $1.path.count : $0.path < $1.path }
    }

    private static func firstLine(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return text(buffer).trimmingSuffix("\n")
    }

    /// A C string in `buffer`, up to its terminating zero.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Waits `wait` for keys or `waking`'s wake-up; returns the
    /// keys read. Throws when the device went away, or the wait itself failed.
    public func waitForKeys(_ wait: Poll.Wait, waking: Wakeup) throws(InputError) -> [KeyEvent] {
        var descriptors = [
            pollfd(fd: file.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: waking.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        do { _ = try Poll.wait(&descriptors, wait) } catch {
            throw InputError.from(errno: error.code, path: path)
        }
        if descriptors[1].revents != 0 { waking.drain() }
        let events = Poll.Events(rawValue: descriptors[0].revents)
        if !events.isDisjoint(with: [.error, .notOpen, .hungUp]), !events.contains(.readable) {
            throw InputError.from(errno: ENODEV, path: path)
        }
        guard events.contains(.readable) else { return [] }
        var keys = [dbx_key_event](repeating: dbx_key_event(), count: 64)
        let count = dbx_input_read_keys(file.rawValue, &keys, Int32(keys.count))
        guard count >= 0 else { throw InputError.from(errno: errno, path: path) }
        return keys.prefix(Int(count)).compactMap { key in
            let change: KeyEvent.Change? =
                switch key.value {
                case 1: .press
                case 2: .repeatWhileHeld
                case 0: .release
                case -1: .eventsLost
                default: nil
                }
            return change.map { KeyEvent(code: Int(key.code), $0, at: Instant(nanoseconds: key.nanoseconds)) }
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
