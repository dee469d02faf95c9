import DelayboxDoors
import DelayboxPlatform
import DelayboxUnits
import DelayboxWeb
import FoundationEssentials

/// The web page's password where the appliance keeps it: `web-password` beside the state
/// file (docs/web.md).
public enum WebPasswordFile {
    /// The password store beside `statePath`.
    public static func passwords(besideState statePath: String) -> WebPasswords {
        WebPasswords(
            path: URL(fileURLWithPath: statePath).deletingLastPathComponent().appendingPathComponent("web-password")
                .path)
    }

    /// The page's access: its first password may be chosen in the 30 minutes after the
    /// board booted (CLOCK_MONOTONIC's zero) — being able to power-cycle the box is the
    /// proof of owning it. A restart of the service (an upgrade, a crash, the watchdog, a
    /// socket activation) does not open it again; `web reset` at the console does.
    public static func access(besideState statePath: String) -> WebAccess {
        WebAccess(passwords: passwords(besideState: statePath), started: .zero)
    }

    /// Sets the password beside `statePath` with no appliance running; nil, or what is wrong.
    public static func set(_ password: String, besideState statePath: String) -> String? {
        access(besideState: statePath).set(password: password)
    }
}
