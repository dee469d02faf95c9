import CWeb
import DelayboxSystem
import DelayboxWeb
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libmicrohttpd serving the web door (docs/web.md): HTTP/1.1 on a listening socket —
/// systemd's (socket activation: port 80 without root or a capability) or one opened here
/// — a thread per connection, at most 32 connections and 6 from one network (an IPv4
/// address, an IPv6 /64: `ClientNetwork`), a request
/// body of 8 KB at most. Each request is handed whole to `respond`; the status stream is
/// read from `stream()`.
public final class WebServer: Sendable {
    /// A Server-Sent Events stream's source, read on its connection's thread.
    public protocol EventSource: AnyObject, Sendable {
        /// The next bytes (at most `limit`), waiting for them; nil when the stream ends.
        func next(limit: Int) -> [UInt8]?
        /// The connection is gone.
        func close()
    }

    public struct Handlers: Sendable {
        public var respond: @Sendable (WebRequest) -> WebResponse
        /// The status stream for the request's peer; nil at a limit.
        public var stream: @Sendable (WebRequest) -> (any EventSource)?
        public init(
            respond: @escaping @Sendable (WebRequest) -> WebResponse,
            stream: @escaping @Sendable (WebRequest) -> (any EventSource)?
        ) {
            self.respond = respond
            self.stream = stream
        }
    }

    private final class Context: Sendable {
        let handlers: Handlers
        init(_ handlers: Handlers) { self.handlers = handlers }
    }

    private final class StreamBox: Sendable {
        let source: any EventSource
        init(_ source: any EventSource) { self.source = source }
    }

    private struct Daemon: @unchecked Sendable {  // libmicrohttpd's handle: its own threads use it; we only stop it
        let pointer: OpaquePointer
    }

    public let port: Int
    private let listener: Int32
    private let daemon: Mutex<Daemon?>
    private let context: Unmanaged<Context>

    /// Serves on `socket` (a listening TCP socket, taken over: closed at `stop`).
    public init(socket: Int32, handlers: Handlers) throws(WebServerError) {
        port = Self.port(of: socket)
        listener = socket
        let context = Unmanaged.passRetained(Context(handlers))
        guard let daemon = dbx_web_start(socket, 32, 6, 60, Self.handle, context.toOpaque()) else {
            context.release()
            if socket != Self.systemdSocket { close(socket) }
            throw WebServerError("libmicrohttpd did not start")
        }
        self.context = context
        self.daemon = Mutex(Daemon(pointer: daemon))
    }

    /// Stops accepting and waits for every connection's thread (the streams must have been
    /// ended: `EventSource.next` returning nil).
    public func stop() {
        guard
            let daemon = daemon.withLock({ daemon in
                defer { daemon = nil }; return daemon
            })
        else { return }
        dbx_web_stop(daemon.pointer, listener == Self.systemdSocket ? 1 : 0)
        context.release()
    }

    /// The listening socket systemd passed (socket activation: `LISTEN_FDS`, fd 3; it
    /// decides the port, and serves every server this process starts), or a new one on
    /// `port` on every address (IPv6 and IPv4).
    public static func listeningSocket(port: Int) throws(WebServerError) -> Int32 {
        if let systemdSocket { return systemdSocket }
        var fd = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1, no: Int32 = 0
        if fd >= 0 {
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_any
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            if bound != 0 {
                let code = errno
                close(fd)
                fd = -1
                if code != EAFNOSUPPORT && code != EADDRNOTAVAIL { throw WebServerError(port: port, code) }
            }
        }
        if fd < 0 {  // no IPv6 on this host: IPv4 alone
            fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw WebServerError(port: port, errno) }
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw WebServerError(port: port, code)
            }
        }
        guard listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw WebServerError(port: port, code)
        }
        return fd
    }

    /// fd 3 when systemd passed one socket to this very process.
    private static let systemdSocket: Int32? = {
        guard let count = getenv("LISTEN_FDS").map({ String(cString: $0) }), count == "1",
            let pid = getenv("LISTEN_PID").map({ String(cString: $0) }), pid == String(getpid())
        else { return nil }
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDNAMES")
        return 3
    }()

    private static func port(of socket: Int32) -> Int {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard found == 0 else { return 0 }
        let family = address.ss_family
        return withUnsafePointer(to: &address) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }

    /// On a connection's thread: the request made whole, answered.
    private static let handle: dbx_web_handler = { context, request in
        guard let context, let request else { return 0 }
        let handlers = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().handlers
        let raw = request.pointee
        var headers: [String: String] = [:]
        for name in WebRequest.headerNames {
            if let value = dbx_web_header(raw.connection, name) { headers[name] = String(cString: value) }
        }
        let body = raw.body_length > 0 ? Array(UnsafeRawBufferPointer(start: raw.body, count: raw.body_length)) : []
        let webRequest = WebRequest(
            method: String(cString: raw.method), path: String(cString: raw.url), headers: headers,
            body: body, client: String(cString: raw.client),
            clientOnLink: dbx_web_client_on_link(raw.client) == 1)
        let response = handlers.respond(webRequest)
        return withHeaders(response.headers) { headerPointers in
            switch response.body {
            case .bytes(let bytes):
                let content = webRequest.method == "HEAD" ? [] : bytes
                return content.withUnsafeBytes {
                    Int32(
                        dbx_web_respond(
                            raw.connection, UInt32(response.status), headerPointers, $0.baseAddress, $0.count))
                }
            case .statusEvents:
                guard let source = handlers.stream(webRequest) else {
                    let busy = Array("too many status streams\n".utf8)
                    return busy.withUnsafeBytes {
                        Int32(dbx_web_respond(raw.connection, 503, nil, $0.baseAddress, $0.count))
                    }
                }
                let box = Unmanaged.passRetained(StreamBox(source))
                return Int32(
                    dbx_web_respond_stream(raw.connection, headerPointers, readStream, box.toOpaque(), endStream))
            }
        }
    }

    private static let readStream: dbx_web_reader = { context, buffer, size in
        guard let context, let buffer else { return -1 }
        let source = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue().source
        guard let bytes = source.next(limit: size) else { return -1 }
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return bytes.count
    }

    private static let endStream: dbx_web_reader_done = { context in
        guard let context else { return }
        let box = Unmanaged<StreamBox>.fromOpaque(context)
        box.takeUnretainedValue().source.close()
        box.release()
    }

    /// `headers` as a NULL-terminated C array of name, value pairs, for the length of `body`.
    private static func withHeaders<T>(_ headers: [[String]], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T
    {
        let strings = headers.flatMap { $0 }.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = strings.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

public struct WebServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
    init(port: Int, _ code: Int32) {
        switch code {
        case EADDRINUSE:
            description = "port \(port) is taken (by another program, or another box on this host): set web.port"
        case EACCES:
            description =
                "port \(port) needs privilege: the package's delaybox.socket passes it, or choose web.port above 1023"
        default: description = "cannot listen on port \(port): \(Errno(code))"
        }
    }
}
