import DelayboxConfig

/// What `web`, `web password` and `web reset` answer at a door: whether the page has a
/// password (and while none is set, how long the first may still be chosen on the page),
/// or that it was set or cleared. A Codable answer: lines in this order, or its JSON.
struct WebPasswordAnswer: Encodable {
    var result: String?
    var password: String
    var setupLeftS: Int64?

    enum CodingKeys: String, CodingKey {
        case result, password
        case setupLeftS = "setup_left_s"
    }
}
