import Foundation

/// A path with jitter, as `tc netem delay BASE JITTER` gives one but without root or a
/// network namespace: a TCP proxy on loopback that holds what the server sends for BASE ±
/// JITTER ms (uniform, per read), in order — a later read never overtakes an earlier one.
/// What the client sends goes straight through.
public final class JitterProxy {
    public let port: Int
    private let process: LaunchedProgram
    private let directory: URL

    /// Forwards connections on a fresh loopback port to `targetPort`.
    public init(targetPort: Int, baseMs: Double, jitterMs: Double) throws {
        port = try LoopbackPort.unused()
        directory = try ExternalTool.temporaryDirectory("jitter-proxy")
        let ready = directory.appendingPathComponent("ready")
        let script = """
            import random, socket, threading, time, collections
            def down(server, client):
                queue, cv, state = collections.deque(), threading.Condition(), {'done': False, 'last': 0.0}
                def writer():
                    while True:
                        with cv:
                            while not queue and not state['done']: cv.wait()
                            if not queue: break
                            due, data = queue.popleft()
                        wait = due - time.monotonic()
                        if wait > 0: time.sleep(wait)
                        try: client.sendall(data)
                        except OSError: break
                    client.close()
                threading.Thread(target=writer, daemon=True).start()
                while True:
                    data = server.recv(65536)
                    due = max(state['last'], time.monotonic() + (\(baseMs) + random.uniform(-\(jitterMs), \(jitterMs))) / 1000)
                    state['last'] = due
                    with cv:
                        if data: queue.append((due, data))
                        else: state['done'] = True
                        cv.notify()
                    if not data: break
            def up(client, server):
                while True:
                    data = client.recv(65536)
                    if not data: break
                    server.sendall(data)
            listener = socket.socket(); listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(('127.0.0.1', \(port))); listener.listen(8)
            open('\(ready.path)', 'w').close()
            while True:
                client, _ = listener.accept()
                server = socket.create_connection(('127.0.0.1', \(targetPort)))
                for sock in (client, server): sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                threading.Thread(target=down, args=(server, client), daemon=True).start()
                threading.Thread(target=up, args=(client, server), daemon=True).start()
            """
        process = try LaunchedProgram(command: ["python3", "-c", script])
        guard Eventually.holds(within: 10, every: 0.05, { FileManager.default.fileExists(atPath: ready.path) }) else {
            process.kill()
            throw ExternalTool.Failed(description: "the jitter proxy did not listen within 10 s")
        }
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(at: directory)
    }
}
