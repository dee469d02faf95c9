import Foundation

/// The one field the round trips wait for in a status the box published (MQTT's retained
/// status, the page's stream): the volume it shows.
struct StatusVolume: Decodable {
    var volume: Int

    /// The volume in `json`, or nil when it is no status.
    static func read(_ json: some DataProtocol) -> Int? {
        try? JSONDecoder().decode(StatusVolume.self, from: Data(json)).volume
    }
}
