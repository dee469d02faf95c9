/// One problem found in a config file, in the form compilers use so that editors jump to
/// it: `file:line:column: error: message`.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error, warning
    }

    public var location: SourceLocation
    public var severity: Severity
    public var message: String

    public init(_ severity: Severity, at location: SourceLocation, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
