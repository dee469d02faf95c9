import DelayboxNetwork
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// Where the unprivileged service asks one of root's helpers for a change (its Wi-Fi, a
/// venue's broker and time server) and reads the answer: two files in the service's runtime
/// directory (/run/delaybox), which a systemd path unit watches. Root reads the request as a
/// stranger's — a regular file of the directory's owner, opened without following a link or
/// waiting on a FIFO, `limit` bytes at most — and answers in a file made new, renamed into
/// place whole. A request may hold a password for a moment: mode 0600, in a directory only
/// the service and root can enter, removed by root once read.
public struct HelperMailbox: Sendable {
    public let directory: String
    public let requestName: String
    public let answerName: String
    /// The most of a request read, in bytes.
    public let limit: Int

    /// Why a request was not read, in words for the journal.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public init(directory: String, requestName: String, answerName: String, limit: Int = 1024) {
        self.directory = directory
        self.requestName = requestName
        self.answerName = answerName
        self.limit = limit
    }

    /// Root's side, whole: the request that waits read by `parse`, carried out by `perform`
    /// (nil: done, else why not) and answered beside it. What happened, in words for the
    /// journal (`describe` says what a request asks, without its passwords); nil when none
    /// waits. `what` names the helper's kind of request ("Wi-Fi", "venue").
    public func serve<Request>(
        what: String, parse: (String) throws(HelperRequestFrame.Problem) -> (id: UInt64, request: Request),
        describe: (Request) -> String, perform: (Request) -> String?
    ) -> String? {
        let text: String
        switch take() {
        case nil: return nil
        case .failure(let problem)?: return "\(what) request refused: \(problem)"
        case .success(let read)?: text = read
        }
        let id: UInt64
        let failure: String?
        let said: String
        do throws(HelperRequestFrame.Problem) {
            let parsed = try parse(text)
            id = parsed.id
            failure = perform(parsed.request)
            said = "\(describe(parsed.request)): " + (failure ?? "done")
        } catch {
            guard let known = error.id else { return "\(what) request refused: \(error)" }
            id = known
            failure = error.description
            said = "\(what) request refused: \(error)"
        }
        if let problem = answer(HelperAnswer(id: id, failure: failure)) { return said + "; " + problem }
        return said
    }

    /// Root's side: the request's text, removed once read; nil when none waits.
    public func take() -> Result<String, Problem>? {
        let path = directory + "/" + requestName
        var entry = stat()
        guard lstat(path, &entry) == 0 || errno != ENOENT else { return nil }
        defer { unlink(path) }
        var owner = stat()
        guard stat(directory, &owner) == 0 else {
            return .failure(Problem("cannot look at \(directory): \(String(cString: strerror(errno)))"))
        }
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            return .failure(Problem("\(path) cannot be opened as a file (\(String(cString: strerror(errno))))"))
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(Problem("\(path) is not a regular file"))
        }
        guard status.st_uid == owner.st_uid else {
            return .failure(Problem("\(path) is not the service's own file (owner \(status.st_uid))"))
        }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        let count = Glibc.read(file, &bytes, bytes.count)
        guard count >= 0, count <= limit else {
            return .failure(Problem("\(path) is longer than \(limit) bytes, or unreadable"))
        }
        return .success(String(decoding: bytes[0..<count], as: UTF8.self))
    }

    /// Root's side: leaves `answer` beside the request — a file made new (never one the
    /// service left in its place, or a link it made), renamed into place whole. Nil when
    /// done, else why not.
    public func answer(_ answer: HelperAnswer) -> String? {
        let path = directory + "/" + answerName
        let temporary = path + ".new"
        unlink(temporary)
        let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { return "cannot answer in \(temporary): \(String(cString: strerror(errno)))" }
        let bytes = Array(answer.text.utf8)
        let written = write(file, bytes, bytes.count)
        close(file)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return "cannot answer in \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// The service's side: leaves the request `text(id)` makes for a fresh id and waits up
    /// to `within` for root's answer to that id: nil when it was done, else why not.
    /// `helper` names root's helper and its path unit in the words said when it does not
    /// answer; `pause` waits a while and says whether to go on waiting (false: stopping).
    public func ask(
        within: TimeAmount, clock: any MonotonicClock, helper: (name: String, unit: String),
        pause: (TimeAmount) -> Bool, text: (UInt64) -> String
    ) -> String? {
        let answerPath = directory + "/" + answerName
        unlink(answerPath)
        let id = UInt64.random(in: 1...UInt64.max)
        do {
            try DurableFile.write(Array(text(id).utf8), to: directory + "/" + requestName, mode: 0o600)
        } catch {
            return "cannot ask \(helper.name): \(error)"
        }
        let deadline = clock.now() + within
        repeat {
            if let read = Self.readAnswer(answerPath), let answer = HelperAnswer(text: read), answer.id == id {
                unlink(answerPath)
                return answer.failure
            }
        } while clock.now() < deadline && pause(.milliseconds(100))
        return "\(helper.name) did not answer within \(within.wholeSeconds) s (is \(helper.unit) running?)"
    }

    /// The answer file's first bytes, if it is there.
    private static func readAnswer(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
