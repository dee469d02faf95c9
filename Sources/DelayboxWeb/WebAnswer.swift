import DelayboxConfig
import DelayboxJSON

/// What the page's own API answers (besides the console's answers it passes on): whether a
/// password is set and for how much longer the first one may be chosen here
/// (`/api/session`), whether this browser is logged in and its CSRF token, or what went
/// wrong in words the page shows (`error`). Only the fields of the answer are present.
struct WebAnswer: Encodable {
    var passwordSet: Bool?
    var loggedIn: Bool?
    var setupLeftS: Int64?
    var csrf: String?
    var error: String?

    enum CodingKeys: String, CodingKey {
        case passwordSet = "password_set"
        case loggedIn = "logged_in"
        case setupLeftS = "setup_left_s"
        case csrf, error
    }

    /// As the response's JSON body.
    var json: String { JSONText.encode(answer: self) }
}
