/// One of root's helpers' answer to the service's request (`HelperMailbox`): done, or why not
/// (the tool's words, or the request's problem). A file beside the request, read and removed
/// by the service.
public struct HelperAnswer: Sendable, Equatable {
    /// The request's id: an answer left from an earlier request is not this one's.
    public var id: UInt64
    /// Nil: done.
    public var failure: String?

    public init(id: UInt64, failure: String?) {
        self.id = id
        self.failure = failure
    }

    /// `ID ok` or `ID failed: WHY`, one line.
    public var text: String {
        let why = failure.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
        return "\(id) " + (why.map { "failed: \($0)" } ?? "ok") + "\n"
    }

    /// The answer in `text`; nil when it is not one.
    public init?(text: String) {
        let line = text.split(separator: "\n").first ?? ""
        guard let space = line.firstIndex(of: " "), let id = UInt64(line[..<space]) else { return nil }
        let rest = line[line.index(after: space)...]
        if rest == "ok" {
            self.init(id: id, failure: nil)
        } else if rest.hasPrefix("failed: ") {
            self.init(id: id, failure: String(rest.dropFirst("failed: ".count)))
        } else {
            return nil
        }
    }
}
