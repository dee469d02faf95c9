import DelayboxSystem
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.0 POST of a form to another box on the LAN, and its answer — how a joining
/// box fetches its join code from the venue hub's page (`VenueErrand`). The thin adapter
/// over the socket calls: the connection closes after the answer, every call waits at
/// most `patience` (connect, send and each read: the kernel's socket timeouts), and an
/// answer longer than `largest` bytes is refused, whatever the other side sends.
public enum FormPost {
    /// An answer: its status and its body's bytes.
    public struct Answer: Sendable {
        public var status: Int
        public var body: [UInt8]
    }

    /// Why there is no answer, in words for the owner.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// POSTs `form` (`application/x-www-form-urlencoded`) to `path` on `host`:`port`, with
    /// `headers` (names and values of the caller's, without line ends).
    public static func send(
        _ form: String, to path: String, host: String, port: Int, headers: [(String, String)] = [],
        patience: TimeAmount = .seconds(5), largest: Int = 16_384
    ) throws(Failure) -> Answer {
        let socket = try connect(host: host, port: port, patience: patience)
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        // HTTP/1.0: the answer is its bytes up to the close, never chunked.
        let request =
            "POST \(path) HTTP/1.0\r\nHost: \(authority)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + headers.map { "\($0.0): \($0.1)\r\n" }.joined()
            + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n\(form)"
        var (received, closed) = ([UInt8](), false)
        do throws(Errno) {
            try socket.sendAll(Array(request.utf8))
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while !closed, received.count <= largest {
                let count = try socket.read(into: &buffer)
                received += buffer[0..<count]
                closed = count == 0
            }
        } catch {
            throw Failure("\(authority) stopped answering: \(error)")
        }
        guard closed else { throw Failure("its answer is longer than a box's") }
        return try answer(in: received)
    }

    /// A connected TCP socket to `host`:`port` (an address or a name), its timeouts set.
    private static func connect(host: String, port: Int, patience: TimeAmount) throws(Failure) -> FileDescriptor {
        var hints = addrinfo()
        (hints.ai_family, hints.ai_socktype, hints.ai_flags) = (AF_UNSPEC, Int32(SOCK_STREAM.rawValue), AI_NUMERICSERV)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw Failure("\(host) is not an address this box finds")
        }
        defer { freeaddrinfo(found) }
        let socket: FileDescriptor
        do throws(Errno) {
            socket = FileDescriptor(
                adopting: try Errno.retryingInterrupts {
                    Glibc.socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                })
        } catch {
            throw Failure("no socket: \(error)")
        }
        var timeout = timeval(
            tv_sec: Int(patience.nanoseconds / 1_000_000_000),
            tv_usec: Int(patience.nanoseconds % 1_000_000_000 / 1_000))
        for option in [SO_SNDTIMEO, SO_RCVTIMEO] {
            _ = setsockopt(socket.rawValue, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        // On Linux a blocking connect gives up after SO_SNDTIMEO.
        guard Glibc.connect(socket.rawValue, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let failure = Errno.current
            throw Failure(
                failure.code == EINPROGRESS ? "\(host):\(port) did not answer" : "\(host):\(port) refused: \(failure)")
        }
        return socket
    }

    /// The status and body of an HTTP/1.x answer (`received` whole: the server closed).
    static func answer(in received: [UInt8]) throws(Failure) -> Answer {
        guard received.count >= 16, received.starts(with: Array("HTTP/1.".utf8)),
            let status = Int(String(decoding: received[9..<12], as: UTF8.self)), (100...599).contains(status),
            let split = (0...(received.count - 4)).first(where: {
                received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 && received[$0 + 3] == 10
            })
        else { throw Failure("its answer is not HTTP") }
        return Answer(status: status, body: Array(received[(split + 4)...]))
    }
}
