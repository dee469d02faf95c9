extension ConsoleCommand {
    /// `web | web password PASSWORD | web reset`: the page's password is its owner's, set
    /// at the box (the page has its own form for it).
    static let web = ConsoleCommand(
        name: "web", usage: "web | web password PASSWORD | web reset",
        summary:
            "the web page's password: whether one is set, set one, or forget it (the page lets one be chosen for 30 min)",
        arguments: ["password", "reset"],
        doors: .boxOnly(
            page: "the page's password is changed in the page's own form",
            mqtt: "the web password is set at the box: its console or delayboxctl web password")
    ) { words in
        if let password = words.rest(after: ["password"]) {
            // The rest of the line exactly: spaces and `--json` inside it count (no JSON asked).
            let text = String(password.first == " " ? password.dropFirst() : password)
            return text.isEmpty
                ? .failure(ConsoleError("usage: web password PASSWORD")) : .success(ConsoleRequest(.webPassword(text)))
        }
        switch (words.arguments.count, words.first) {
        case (0, _): return words.request(.web)
        case (1, "reset"): return words.request(.webReset)
        default: return words.usageError
        }
    }
}
