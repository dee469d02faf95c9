import CMosquitto
import DelayboxEngine
import DelayboxPlatform
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An MQTT client on libmosquitto, with its network loop on a thread of its own
/// (`mqtt-net`): it connects, keeps the connection alive, and connects again with back-off
/// (1 s doubling to 30 s) after any failure — a broker down at start, restarted, a name
/// that does not resolve yet, refused credentials. `publish` and `subscribe` queue the
/// packet and return at once (the loop thread writes it), so no caller waits on the network.
///
/// Threads: `onEvent` is called on the loop thread and must not block; the rest from any.
public final class MosquittoClient: @unchecked Sendable {
    public struct Options: Sendable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var username: String?
        public var password: String?
        /// TLS, verified against `caFile` (or the system's CAs in /etc/ssl/certs).
        public var tls = false
        public var caFile: String?
        /// The broker publishes this if the box vanishes without saying goodbye.
        public var will: Message?
        public var keepAliveSeconds: Int32 = 30
        /// The longest payload taken (bytes): the broker is asked not to send a longer one,
        /// and one that comes anyway is dropped uncopied. A command line and a release
        /// report are far shorter.
        public var maximumPayloadBytes = 4_096
        /// Room for the topic and MQTT 5's headers in the packet size the broker is told (bytes).
        static let packetOverheadBytes = 1_024

        public init(host: String, port: Int, clientID: String) {
            self.host = host
            self.port = port
            self.clientID = clientID
        }
    }

    public struct Message: Sendable {
        public var topic: String
        public var payload: String
        public var retain: Bool
        /// 1: at least once (what the box publishes); 0: at most once.
        public var qos: Int32
        public init(topic: String, payload: String, retain: Bool, qos: Int32 = 1) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
            self.qos = qos
        }
    }

    public enum Event: Sendable {
        case connected
        /// The broker answered the connect with a refusal (credentials, client id).
        case refused(String)
        /// Not connected: could not connect, or the connection was lost; retried in `retry`.
        case lost(String, retry: TimeAmount)
        /// A message on a subscribed topic; `retained`: the broker kept it from before this
        /// connection's subscription (a replay, not news).
        case message(topic: String, payload: [UInt8], retained: Bool)
        /// A message longer than `Options.maximumPayloadBytes`, dropped before its payload
        /// was copied (a broker that honours MQTT 5's maximum packet size never sends one).
        case oversized(topic: String, bytes: Int)
    }

    public struct SetupFailed: Error, CustomStringConvertible {
        public let description: String
    }

    private let handle: OpaquePointer
    private let options: Options
    private let thread = WorkerThread(name: "mqtt-net")
    private let onEvent: @Sendable (Event) -> Void
    private let connected = Atomic<Bool>(false)
    /// Set by `stop` before it disconnects: the loop then ends without calling that a loss.
    private let stopping = Atomic<Bool>(false)
    private let context: Unmanaged<Context>

    /// The C callbacks' way back to this client.
    private final class Context {
        weak var client: MosquittoClient?
    }

    private static let library: Void = { mosquitto_lib_init() }()

    public init(_ options: Options, onEvent: @escaping @Sendable (Event) -> Void) throws(SetupFailed) {
        _ = Self.library
        let context = Unmanaged.passRetained(Context())
        guard let handle = mosquitto_new(options.clientID, true, context.toOpaque()) else {
            context.release()
            throw SetupFailed(
                description: "cannot make an MQTT client (out of memory, or a client id libmosquitto refuses)")
        }
        self.handle = handle
        self.options = options
        self.onEvent = onEvent
        self.context = context
        context.takeUnretainedValue().client = self
        mosquitto_threaded_set(handle, true)
        // MQTT 5: the connect tells the broker the largest packet this box takes, and the
        // broker drops larger ones instead of sending them (libmosquitto's client side has
        // no limit of its own: a retained 200 MB message would be read whole).
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V5))
        // A reply and the status after it are small writes back to back: without this,
        // Nagle's algorithm holds the second until the first is acknowledged (40 ms).
        _ = mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let username = options.username {
            try check(mosquitto_username_pw_set(handle, username, options.password), "credentials")
        }
        if let will = options.will {
            try check(
                mosquitto_will_set(handle, will.topic, Int32(will.payload.utf8.count), will.payload, 1, will.retain),
                "will")
        }
        if options.tls {
            try check(
                mosquitto_tls_set(
                    handle, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil),
                "TLS (CA file \(options.caFile ?? "/etc/ssl/certs"))")
        }
        mosquitto_connect_callback_set(handle) { _, context, code in
            MosquittoClient.client(context)?.connectAnswered(code)
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message, let client = MosquittoClient.client(context) else { return }
            let topic = String(cString: message.pointee.topic)
            let length = Int(message.pointee.payloadlen)
            guard length <= client.options.maximumPayloadBytes else {
                client.onEvent(.oversized(topic: topic, bytes: length))
                return
            }
            let payload =
                message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            client.onEvent(.message(topic: topic, payload: payload, retained: message.pointee.retain))
        }
    }

    deinit {
        mosquitto_destroy(handle)
        context.release()
    }

    private static func client(_ context: UnsafeMutableRawPointer?) -> MosquittoClient? {
        context.map { Unmanaged<Context>.fromOpaque($0).takeUnretainedValue().client } ?? nil
    }

    private func check(_ code: Int32, _ what: String) throws(SetupFailed) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw SetupFailed(description: "MQTT \(what): \(String(cString: mosquitto_strerror(code)))")
    }

    private func connectAnswered(_ code: Int32) {
        if code == 0 {
            connected.store(true, ordering: .releasing)
            onEvent(.connected)
        } else {
            // MQTT 5's reason code (135: not authorised), not 3.1.1's connack code.
            onEvent(.refused(String(cString: mosquitto_reason_string(code))))
        }
    }

    /// Whether the broker accepted the connection and it has not been lost since.
    public var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// Starts the loop thread: connects, and keeps connecting.
    public func start() {
        thread.start { [self] in run() }
    }

    private func run() {
        // Jittered (±20 %) like the stream client's: a venue's boxes do not all reconnect to
        // a restarted broker in the same millisecond (issue 43).
        var backoff = ReconnectBackoff(initial: .seconds(1), cap: .seconds(30))
        var random = SystemRandomNumberGenerator()
        var everConnected = false
        while !thread.isStopRequested {
            let code =
                everConnected
                ? mosquitto_reconnect(handle)
                : connect()
            // (Described at once: errno is the failed call's.)
            var failure = Self.describe(code)
            if code == MOSQ_ERR_SUCCESS.rawValue {
                everConnected = true
                var result = MOSQ_ERR_SUCCESS.rawValue
                while !thread.isStopRequested, result == MOSQ_ERR_SUCCESS.rawValue {
                    result = mosquitto_loop(handle, 1_000, 1)
                    if isConnected { backoff.reset() }
                }
                if thread.isStopRequested || stopping.load(ordering: .acquiring) { break }
                failure = Self.describe(result)
                connected.store(false, ordering: .releasing)
            }
            let wait = backoff.nextDelay(using: &random)
            onEvent(.lost(failure, retry: wait))
            thread.wait(for: wait)
        }
    }

    /// The first connect, with the largest packet this box takes (topic, payload and MQTT 5's
    /// headers); a reconnect sends the same properties.
    private func connect() -> Int32 {
        var properties: OpaquePointer? = nil
        defer { mosquitto_property_free_all(&properties) }
        let limit = UInt32(options.maximumPayloadBytes + Options.packetOverheadBytes)
        guard
            mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), limit)
                == MOSQ_ERR_SUCCESS.rawValue
        else { return MOSQ_ERR_NOMEM.rawValue }
        return mosquitto_connect_bind_v5(
            handle, options.host, Int32(options.port), options.keepAliveSeconds, nil, properties)
    }

    private static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_CONN_LOST.rawValue { return "connection lost" }
        if code == MOSQ_ERR_ERRNO.rawValue { return ErrorText.system(errno) }
        return String(cString: mosquitto_strerror(code))
    }

    /// Queues a message; false when it cannot be queued.
    @discardableResult
    public func publish(_ message: Message) -> Bool {
        mosquitto_publish(
            handle, nil, message.topic, Int32(message.payload.utf8.count), message.payload, message.qos, message.retain)
            == MOSQ_ERR_SUCCESS.rawValue
    }

    public func subscribe(_ topic: String) {
        _ = mosquitto_subscribe(handle, nil, topic, 1)
    }

    /// Publishes `lastWords` (the box going offline on purpose), disconnects so that the
    /// broker does not send the will, and ends the loop thread.
    public func stop(lastWords: Message?) {
        stopping.store(true, ordering: .releasing)
        if isConnected {
            if let lastWords { publish(lastWords) }
            _ = mosquitto_disconnect(handle)
        }
        thread.stop()
        // What the loop had not written yet (the last words, the disconnect): up to 1 s.
        if isConnected {
            var rounds = 0
            while rounds < 10, mosquitto_loop(handle, 100, 1) == MOSQ_ERR_SUCCESS.rawValue { rounds += 1 }
            connected.store(false, ordering: .releasing)
        }
    }
}
