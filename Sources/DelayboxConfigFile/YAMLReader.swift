import CYAML
import DelayboxConfig

/// YAML text to a `ConfigNode` tree through libyaml's parser events: every node keeps its
/// line and column; every scalar stays text (no implicit typing: `no` is not false,
/// `0755` not octal); an alias is the node its anchor names.
enum YAMLReader {
    /// Where and what is wrong with the text (line and column from 1). libyaml's words
    /// start with "YAML: "; ours (what YAML allows but a config does not) do not.
    struct Failure: Error {
        var problem: String
        var line: Int
        var column: Int
    }

    /// The document's root, or nil when the text holds none (empty, or only comments).
    static func read(_ text: String, file: String) throws(Failure) -> ConfigNode? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { throw Failure(problem: "out of memory", line: 1, column: 1) }
        defer { yaml_parser_delete(parser) }
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
        defer { bytes.deallocate() }
        _ = bytes.initialize(from: text.utf8)
        yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
        var events = Events(parser: parser, file: file)
        return try events.document()
    }

    /// The parser's events, one at a time, composed into nodes.
    private struct Events {
        let parser: UnsafeMutablePointer<yaml_parser_t>
        let file: String
        var anchors: [String: ConfigNode] = [:]

        init(parser: UnsafeMutablePointer<yaml_parser_t>, file: String) {
            self.parser = parser
            self.file = file
        }

        /// One event, copied out of libyaml's.
        enum Event {
            case streamStart, streamEnd, documentStart, documentEnd
            case mappingStart(anchor: String?), mappingEnd
            case sequenceStart(anchor: String?), sequenceEnd
            case scalar(String, anchor: String?)
            case alias(String)
        }

        mutating func document() throws(Failure) -> ConfigNode? {
            guard case (.streamStart, _) = try next() else { throw failure("no stream") }
            let (first, _) = try next()
            if case .streamEnd = first { return nil }
            guard case .documentStart = first else { throw failure("no document") }
            let (event, location) = try next()
            let root = try node(event, at: location)
            guard case (.documentEnd, _) = try next() else { throw failure("expected the end of the document") }
            let (after, place) = try next()
            guard case .streamEnd = after else {
                throw Failure(
                    problem: "a second document ('---'): a config file holds one", line: place.line,
                    column: place.column)
            }
            return root
        }

        private mutating func node(_ event: Event, at location: SourceLocation) throws(Failure) -> ConfigNode {
            switch event {
            case .scalar(let text, let anchor):
                return remember(.scalar(text, location), as: anchor)
            case .alias(let anchor):
                guard let node = anchors[anchor] else {
                    throw Failure(
                        problem: "'*\(anchor)' names no anchor above it", line: location.line, column: location.column)
                }
                return node
            case .sequenceStart(let anchor):
                var items: [ConfigNode] = []
                while true {
                    let (item, place) = try next()
                    if case .sequenceEnd = item { break }
                    items.append(try node(item, at: place))
                }
                return remember(.sequence(items, location), as: anchor)
            case .mappingStart(let anchor):
                var entries: [(ConfigNode.Key, ConfigNode)] = []
                while true {
                    let (key, keyPlace) = try next()
                    if case .mappingEnd = key { break }
                    guard case .scalar(let name, _) = key else {
                        throw Failure(problem: "a key must be plain text", line: keyPlace.line, column: keyPlace.column)
                    }
                    guard !entries.contains(where: { $0.0.name == name }) else {
                        throw Failure(
                            problem: "'\(name)' is written twice in one mapping", line: keyPlace.line,
                            column: keyPlace.column)
                    }
                    let (value, valuePlace) = try next()
                    entries.append((ConfigNode.Key(name, at: keyPlace), try node(value, at: valuePlace)))
                }
                return remember(.mapping(entries, location), as: anchor)
            default:
                throw Failure(problem: "YAML: unexpected \(event)", line: location.line, column: location.column)
            }
        }

        private mutating func remember(_ node: ConfigNode, as anchor: String?) -> ConfigNode {
            if let anchor { anchors[anchor] = node }
            return node
        }

        private mutating func next() throws(Failure) -> (Event, SourceLocation) {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else {
                let problem = parser.pointee.problem.map { String(cString: $0) } ?? "cannot be parsed"
                let context = parser.pointee.context.map { String(cString: $0) + ": " } ?? ""
                let mark = parser.pointee.problem_mark
                throw Failure(
                    problem: "YAML: " + context + problem, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
            }
            defer { yaml_event_delete(&event) }
            let location = SourceLocation(
                file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?, _ length: Int? = nil) -> String? {
                guard let pointer else { return nil }
                let count = length ?? strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
                return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
            }
            let copied: Event =
                switch event.type {
                case YAML_STREAM_START_EVENT: .streamStart
                case YAML_DOCUMENT_START_EVENT: .documentStart
                case YAML_DOCUMENT_END_EVENT: .documentEnd
                case YAML_MAPPING_START_EVENT: .mappingStart(anchor: text(event.data.mapping_start.anchor))
                case YAML_MAPPING_END_EVENT: .mappingEnd
                case YAML_SEQUENCE_START_EVENT: .sequenceStart(anchor: text(event.data.sequence_start.anchor))
                case YAML_SEQUENCE_END_EVENT: .sequenceEnd
                case YAML_SCALAR_EVENT:
                    .scalar(
                        text(event.data.scalar.value, Int(event.data.scalar.length)) ?? "",
                        anchor: text(event.data.scalar.anchor))
                case YAML_ALIAS_EVENT: .alias(text(event.data.alias.anchor) ?? "")
                default: .streamEnd
                }
            return (copied, location)
        }

        private func failure(_ problem: String) -> Failure {
            let mark = parser.pointee.mark
            return Failure(problem: "YAML: " + problem, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        }
    }
}
