extension BoardConfig {
    /// `mqtt:` — broker URL, CA file, client id, credentials, topic prefix, group, venue clock.
    static func readMQTT(_ mqtt: ConfigReader, log: DiagnosticLog) -> MQTTSettings? {
        defer { mqtt.finish() }
        let caFile = mqtt.string("ca_file"), clientID = mqtt.string("client_id")
        let username = mqtt.string("username"), password = mqtt.secret("password")
        let prefix = mqtt.string("topic_prefix"), group = mqtt.string("group")
        let venueClock = mqtt.choice("venue_clock", as: VenueClockSource.self) ?? .chrony
        guard let url = mqtt.string("broker") else {
            if let location = mqtt.location {
                log.error(location, "'mqtt.broker' is missing: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
            }
            return nil
        }
        let at = { (key: String) in mqtt.value(key)!.location }
        let broker: (host: String, port: Int, tls: Bool)
        switch MQTTSettings.broker(url) {
        case .success(let parsed): broker = parsed
        case .failure(let error):
            log.error(at("broker"), "'mqtt.broker': \(error)")
            return nil
        }
        var valid = true
        if caFile != nil, !broker.tls {
            log.error(at("ca_file"), "'mqtt.ca_file' is for a TLS broker: write the broker as mqtts://")
            valid = false
        }
        if password != nil, username == nil {
            log.error(at("password"), "'mqtt.password' without 'mqtt.username'")
            valid = false
        }
        for (key, value) in [("client_id", clientID), ("topic_prefix", prefix), ("group", group)] {
            guard let value else { continue }
            let levels = key == "topic_prefix"
            if !MQTTSettings.isTopicPath(value) || (!levels && value.contains("/")) {
                log.error(
                    at(key),
                    "'mqtt.\(key)' is '\(value)': \(levels ? "topic levels" : "one topic level") without +, #\(levels ? " or an empty level" : " or /")"
                )
                valid = false
            }
        }
        guard valid else { return nil }
        return MQTTSettings(
            host: broker.host, port: broker.port, tls: broker.tls, caFile: caFile, clientID: clientID,
            username: username,
            password: password, topicPrefix: prefix, group: group, venueClock: venueClock)
    }
}
