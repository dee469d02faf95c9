import DelayboxConsole

/// `board list` and `board use NAME`: the board chosen from the shipped ones, on the box's
/// page or its console (issue 57). The service writes no file outside its own: root's
/// `delaybox-board.service` (started by `delaybox-board.path` when the request appears)
/// runs `delaybox board NAME` and restarts the box on it.
extension ConsoleAnswers {
    /// The boards `door` may list and choose: a network door (the page) the Pi's only, and
    /// the one the box runs on (marked there as this box's).
    func boards(for door: NetworkDoorPolicy.Door?) -> [BoardChoices.Board] {
        let running = config.name
        return boardChoices.boards.filter { door == nil || $0.isForPi || $0.config.name == running }
    }

    /// `board list`: a board per line, the one running marked `*`, the HAT's proposal said.
    func boardList(door: NetworkDoorPolicy.Door?) -> ConsoleReply {
        let choices = boardChoices
        let answer = BoardListAnswer(
            boards: boards(for: door).map { .init(name: $0.name, title: $0.config.name, hat: $0.config.hat.rawValue) },
            current: config.name, hatSays: choices.hatProduct, proposed: choices.proposed)
        let lines = answer.boards.map {
            ($0.title == answer.current ? "* " : "  ") + $0.name + "  " + $0.title
                + (answer.proposed.contains($0.name) ? "  (the HAT's)" : "")
        }
        let hat = answer.hatSays.map { "the HAT says it is '\($0)'" } ?? "no HAT names itself on this board"
        return .answer(answer, text: (lines + [hat]).joined(separator: "\n"))
    }

    /// `board use NAME`: checks the name against the shipped boards, then leaves the
    /// request for root's helper.
    func chooseBoard(
        _ name: String, door: NetworkDoorPolicy.Door?, effects: inout [ConsoleEffect]
    ) -> ConsoleReply? {
        let boards = boards(for: door)
        guard let chosen = boards.first(where: { $0.name == name }) else {
            let names = boards.map(\.name).joined(separator: ", ")
            return .refusal(.refused, "no board '\(name)'; there are: \(names)")
        }
        let reboot = chosen.config.configTxt.isEmpty ? "" : "; its config.txt lines take a reboot"
        let done = ResultAnswer(board: "asked for \(name) (\(chosen.config.name)): the box restarts on it\(reboot)")
        return leaveRequest("board-request", holding: name, for: "a board", done: done, effects: &effects)
    }
}
