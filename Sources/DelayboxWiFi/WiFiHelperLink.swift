import DelayboxNetwork
import DelayboxState
import DelayboxUnits

/// The service's side of root's Wi-Fi helper (`WiFiHelper`): asks through the runtime
/// directory's mailbox, where delaybox-wifi.path sees the request, and waits for the answer.
public struct WiFiHelperLink: Sendable {
    /// The service's runtime directory; nil: the box was not installed from the package,
    /// and nothing here may change its Wi-Fi.
    public let directory: String?
    let clock: any MonotonicClock

    public init(directory: String?, clock: any MonotonicClock) {
        self.directory = directory
        self.clock = clock
    }

    /// Asks for `request` and waits for the answer up to `within`: nil when it was done,
    /// else why not. `pause` waits a while and says whether to go on waiting (false: the
    /// keeper is stopping).
    public func ask(_ request: WiFiRequest, within: TimeAmount, pause: (TimeAmount) -> Bool) -> String? {
        guard let directory else {
            return "this box was not installed from the package: its Wi-Fi is NetworkManager's alone (docs/deploy.md)"
        }
        return WiFiHelper.mailbox(directory).ask(
            within: within, clock: clock, helper: ("root's Wi-Fi helper", "delaybox-wifi.path"), pause: pause,
            text: request.text(id:))
    }
}
