import DelayboxNetwork

/// A change to the venue's services that the unprivileged service asks root's venue helper
/// for (`delaybox venue-helper`, run by delaybox-venue.path; issue 70): the broker and the
/// time server a hub runs, the boxes its broker lets in, and the hub a box takes its time
/// from. Written by the service as a file in its runtime directory, one field a line; root
/// reads it as a stranger's words — every field is checked again there, by `parse`.
public enum VenueRequest: Sendable, Equatable {
    /// This box becomes the hub of `group`: the broker (the venue's ACL, `manager`'s
    /// password; the hub's own box logs in as the manager), the time server for the LAN,
    /// the Avahi announcement (with `pagePort`, where this box's page is, which a joining
    /// box asks for its code). Boxes admitted before are dropped.
    case serve(group: String, managerPassword: String, pagePort: Int)
    /// A box's user let into the hub's broker (its password replaced if it was there).
    case admit(user: String, password: String)
    /// A box's user taken out of the hub's broker.
    case dismiss(user: String)
    /// This box takes its time from the hub at `hub` (an address or a name).
    case follow(hub: String)
    /// Neither hub nor follower: the venue's files removed, the services as before.
    case leave

    /// The request's and the answer's files in the service's runtime directory.
    public static let fileName = "venue-request", answerFileName = "venue-answer"

    /// The first line's word: a file that does not begin with it is not a request.
    static let magic = "delaybox-venue-request"

    public typealias Problem = HelperRequestFrame.Problem

    /// The file's text, `id` on its first line.
    public func text(id: UInt64) -> String {
        let fields: [String]
        switch self {
        case .serve(let group, let password, let pagePort): fields = ["serve", group, password, String(pagePort)]
        case .admit(let user, let password): fields = ["admit", user, password]
        case .dismiss(let user): fields = ["dismiss", user]
        case .follow(let hub): fields = ["follow", hub]
        case .leave: fields = ["leave"]
        }
        return HelperRequestFrame.text(magic: Self.magic, id: id, fields: fields)
    }

    /// What the request asks, without its password: the journal's line.
    public var summary: String {
        switch self {
        case .serve(let group, _, _): "serve the venue '\(group)'"
        case .admit(let user, _): "admit '\(user)'"
        case .dismiss(let user): "dismiss '\(user)'"
        case .follow(let hub): "take the time from \(hub)"
        case .leave: "leave the venue"
        }
    }

    /// The request in `text` and its id, each field checked.
    public static func parse(_ text: String) throws(Problem) -> (id: UInt64, request: VenueRequest) {
        try HelperRequestFrame.parse(text, magic: magic, what: "venue", request: request)
    }

    static func request(_ fields: [String]) throws(Problem) -> VenueRequest {
        func count(_ wanted: Int) throws(Problem) { try HelperRequestFrame.count(fields, wanted) }
        switch fields.first {
        case "serve":
            try count(4)
            guard let pagePort = Int(fields[3]), (1...65535).contains(pagePort) else {
                throw Problem("a page's port is 1-65535, not '\(fields[3].prefix(16))'")
            }
            return .serve(
                group: try VenueJoinCode.name(fields[1], "group"),
                managerPassword: try VenueJoinCode.password(fields[2]), pagePort: pagePort)
        case "admit":
            try count(3)
            let user = try VenueJoinCode.name(fields[1], "box")
            guard user != VenueBrokerFiles.manager else { throw Problem("'\(user)' is the hub's own user") }
            return .admit(user: user, password: try VenueJoinCode.password(fields[2]))
        case "dismiss":
            try count(2)
            return .dismiss(user: try VenueJoinCode.name(fields[1], "box"))
        case "follow":
            try count(2)
            return .follow(hub: try VenueJoinCode.hubAddress(fields[1]))
        case "leave":
            try count(1)
            return .leave
        default:
            throw Problem(
                "no venue request '\(fields.first?.prefix(16) ?? "")' (serve, admit, dismiss, follow, leave)")
        }
    }
}
