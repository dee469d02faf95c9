/// How the service writes a request for one of root's helpers (the Wi-Fi's, the venue's) and
/// how root reads it back: a first line `MAGIC ID`, then one field a line. Root reads it as
/// a stranger's words; the request's own type checks every field (`WiFiRequest`,
/// `VenueRequest`).
public enum HelperRequestFrame {
    /// Why a request file is not one, in words for the journal and the service.
    public struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
        /// The request's id, when its first line gave one: the refusal is answered to it.
        public var id: UInt64?
        public init(_ description: String) { self.description = description }
    }

    /// The file's text: `magic` and `id` on the first line, then `fields`.
    public static func text(magic: String, id: UInt64, fields: [String]) -> String {
        (["\(magic) \(id)"] + fields).map { $0 + "\n" }.joined()
    }

    /// The id and the request `request` reads from the fields after the first line; a
    /// problem after a readable first line carries its id.
    public static func parse<Request>(
        _ text: String, magic: String, what: String, request: ([String]) throws(Problem) -> Request
    ) throws(Problem) -> (id: UInt64, request: Request) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let head = lines.first?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        guard head.count == 2, head[0] == magic, let id = UInt64(head[1]) else {
            throw Problem("not a \(what) request (its first line is not '\(magic) ID')")
        }
        do throws(Problem) {
            return (id, try request(Array(lines.dropFirst())))
        } catch {
            var problem = error
            problem.id = id
            throw problem
        }
    }

    /// Nil when `fields` (the verb first) are `wanted` in all, else the problem.
    public static func count(_ fields: [String], _ wanted: Int) throws(Problem) {
        guard fields.count == wanted else {
            throw Problem("'\(fields.first?.prefix(16) ?? "")' takes \(wanted - 1) lines, not \(fields.count - 1)")
        }
    }
}
