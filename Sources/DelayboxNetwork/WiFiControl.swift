/// The Wi-Fi as the console asks it (`wifi …`): state now, and requests its keeper carries
/// out on its own thread (each nil when taken, else why not).
public protocol WiFiControl: AnyObject, Sendable {
    func state() -> WiFiState
    func join(ssid: String, password: String) -> String?
    func changeHotspotPassword(_ password: String) -> String?
    func openHotspot() -> String?
    func closeHotspot()
}
