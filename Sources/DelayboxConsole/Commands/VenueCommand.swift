import DelayboxNetwork

extension ConsoleCommand {
    /// `venue | venue hub GROUP | venue add BOX | venue join CODE | venue leave`: a venue of
    /// boxes set up from the page (issue 70). Making a hub, letting a box in and joining hand
    /// out the broker's credentials: the page's owner's or the box's, never a broker
    /// client's; anyone may see the box's part.
    static let venue = ConsoleCommand(
        name: "venue", usage: "venue | venue hub GROUP | venue add BOX | venue join CODE | venue leave",
        summary:
            "this box's part in a venue; make it the venue's hub, let a box in (its join code), join with a code, leave",
        arguments: ["hub", "add", "join", "leave"],
        doors: .byArguments { action, door in
            switch action {
            case .venue: nil
            case .venueServe, .venueAdmit, .venueJoin, .venueLeave:
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
        case (2, "join"):
            switch VenueJoinCode.parse(arguments[1]) {
            case .success(let code): return words.request(.venueJoin(code))
            case .failure(let problem): return .failure(ConsoleError(problem.description))
            }
        case (1, "leave"): return words.request(.venueLeave)
        default: return words.usageError
        }
    }
}
