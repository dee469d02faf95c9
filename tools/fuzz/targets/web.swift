// Fuzz target: the web door's handling of a request from the LAN (DelayboxWeb: routing,
// the Host, Origin and CSRF checks, cookies, form fields, the login throttle, sessions).
// The input is one request as lines: method, path, then `Name: value` headers, an empty
// line, the body; the playout thread and the password store are stand-ins.
import DelayboxConsole
import DelayboxJSON
import DelayboxUnits
import DelayboxWeb
import Synchronization

final class Box: WebBox {
    func ask(_ request: ConsoleRequest) -> ConsoleReply? {
        ConsoleReply(kind: .ok, fields: .object([.init(key: "result", value: .string("ok"))]), text: nil)
    }
}

final class Passwords: PasswordStore {
    let hash = Mutex<String?>("$test$correct horse")
    func storedHash() -> String? { hash.withLock { $0 } }
    func makeHash(_ password: String) -> String? { "$test$" + password }
    func matches(_ password: String, hash: String) -> Bool { hash == "$test$" + password }
    func store(hash: String) -> String? { self.hash.withLock { $0 = hash }; return nil }
    func remove() -> String? { hash.withLock { $0 = nil }; return nil }
    func weakness(of password: String) -> String? { password.hasPrefix("password") ? "a dictionary word" : nil }
}

let app = WebApp(
    box: Box(), access: WebAccess(passwords: Passwords(), started: .zero), random: { [UInt8](repeating: 7, count: $0) })
let clock = Atomic<Int64>(0)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstRange(of: [10, 10])
    let head = String(decoding: bytes[..<(split?.lowerBound ?? bytes.endIndex)], as: UTF8.self).split(separator: "\n")
    let body = split.map { Array(bytes[$0.upperBound...]) } ?? []
    var headers: [String: String] = [:]
    for line in head.dropFirst(2) {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2 { headers[String(parts[0])] = String(parts[1].drop { $0 == " " }) }
    }
    let request = WebRequest(
        method: head.first.map(String.init) ?? "GET", path: head.dropFirst().first.map(String.init) ?? "/",
        headers: headers, body: body, client: "192.168.1.\(size % 7)")
    let now = clock.wrappingAdd(1_000_000_000, ordering: .relaxed).newValue
    _ = app.handle(request, now: Instant(nanoseconds: now))
    _ = FormFields.decode(bytes)
    _ = WebHost.isLocal(String(decoding: bytes, as: UTF8.self))
    return 0
}
