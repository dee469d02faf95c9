import DelayboxNetwork

extension ConsoleCommand {
    /// `venue | venue hub GROUP | venue add BOX | venue hubs | venue join CODE | venue join HUB
    /// KEY | venue claim KEY | venue leave`: a venue of boxes set up from the page (issue 70).
    /// Making a hub, letting a box in and joining hand out the broker's credentials: the
    /// page's owner's or the box's, never a broker client's; anyone may see the box's part.
    /// `venue claim KEY` is what a joining box asks of the hub's page with the key its owner
    /// typed (`VenueJoinKeys`): the page's (the hub's claim address asks it), never MQTT's.
    static let venue = ConsoleCommand(
        name: "venue",
        usage:
            "venue | venue hub GROUP | venue add BOX | venue hubs | venue join CODE | venue join HUB KEY | venue claim KEY | venue leave",
        summary:
            "this box's part in a venue; make it the venue's hub, let a box in (its join code and key), the hubs heard on the LAN, join with a code or a hub's key, leave",
        arguments: ["hub", "add", "hubs", "join", "claim", "leave"],
        doors: .byArguments { action, door in
            switch action {
            case .venue: nil
            case .venueServe, .venueAdmit, .venueHubs, .venueJoin, .venueClaim, .venueHandOver, .venueLeave:
                door == .page ? nil : "a venue is set up on the boxes' pages or at the boxes (docs/mqtt.md)"
            default: NetworkDoorPolicy.notDeclared
            }
        }
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (0, _): return words.request(.venue)
        case (2, "hub"), (2, "add"):
            do throws(HelperRequestFrame.Problem) {
                let name = try VenueJoinCode.name(arguments[1], words.first == "hub" ? "group" : "box")
                return words.request(words.first == "hub" ? .venueServe(group: name) : .venueAdmit(box: name))
            } catch {
                return .failure(ConsoleError("\(error): usage: \(words.usage)"))
            }
        case (1, "hubs"): return words.request(.venueHubs)
        case (2, "join"):
            switch VenueJoinCode.parse(arguments[1]) {
            case .success(let code): return words.request(.venueJoin(code))
            case .failure(let problem): return .failure(ConsoleError(problem.description))
            }
        case (3, "join"):
            guard VenueJoinKeys.isKey(arguments[2]) else {
                return .failure(ConsoleError("'\(arguments[2].prefix(20))' is not a hub's key (8 letters and digits)"))
            }
            switch VenueHubAddress.parse(arguments[1]) {
            case .success(let hub):
                return words.request(
                    .venueClaim(hub: hub.host, port: hub.port, key: VenueJoinKeys.normalized(arguments[2])))
            case .failure(let problem): return .failure(ConsoleError(problem.description))
            }
        case (2, "claim"):
            guard VenueJoinKeys.isKey(arguments[1]) else { return .failure(ConsoleError("that is not a hub's key")) }
            return words.request(.venueHandOver(key: VenueJoinKeys.normalized(arguments[1])))
        case (1, "leave"): return words.request(.venueLeave)
        default: return words.usageError
        }
    }
}
