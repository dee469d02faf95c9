import DelayboxEngine
import DelayboxFFmpeg
import DelayboxPlatform
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// What a channel's stream client saw, and where live was on its connection (`LiveMark`),
/// kept where the next process of the same boot finds it (issue 57): after an upgrade, a crash or the watchdog, the new process replays it
/// into its engine — which is pure and takes time as told, so it holds the same delay
/// line, timeline and station clock — and its first connection splices onto it like any
/// reconnect. The programme is heard again within seconds at the delay it had, where it
/// used to be silent for the whole delay.
///
/// Kept in `$RUNTIME_DIRECTORY/journal` (tmpfs: RAM, no SD-card writes; systemd keeps it
/// across restarts with `RuntimeDirectoryPreserve=restart`), as files of about a minute
/// each, appended to message by message so that a SIGKILL loses at most the one being
/// written; files older than the delay and a minute are removed. A power cut, a reboot
/// (another boot id: CLOCK_MONOTONIC began again) or another link starts empty.
///
/// Bounded in bytes too (issue 66: /run is shared with the system, and a station may send
/// at line rate): at most the kept time at `maximumBytesPerSecond`, and never within
/// `reserveBytes` of the file system's end — the oldest files go first; a full disk
/// (ENOSPC) trims them and tries again, and a journal that still cannot write removes its
/// own files rather than leave /run full. The replay reads file by file.
public final class DelayJournal {
    /// Where the files are.
    public let directory: String
    private let url: String
    private let bootID: String
    /// CLOCK_MONOTONIC (ns) at this process's clock's zero: the files hold CLOCK_MONOTONIC,
    /// which the next process of the boot shares; each process's `Instant`s count from its start.
    private let clockZero: Int64
    /// How much to keep behind the newest message (ns): the delay in force and a minute.
    private var keepNanoseconds: Int64 = 120 * 1_000_000_000
    private var file: Int32 = -1
    /// Start (ns, CLOCK_MONOTONIC), path and length (bytes) of each file, oldest first.
    private var files: [(start: Int64, path: String, bytes: Int64)] = []
    /// Whether this journal has begun a file yet.
    private var wroteBefore = false
    /// Why the journal stopped (the disk full, the directory gone), once; nil while it works.
    public private(set) var problem: String?
    /// The codec of the connection being journalled: each file begins with it, so that a
    /// replay whose oldest files went (a connection older than the delay and a minute)
    /// can still decode what it holds.
    private var connectionCodec: CodecParameters?

    /// A file's length in time (ns).
    static let fileNanoseconds: Int64 = 60 * 1_000_000_000
    /// The fastest station journalled in full (bytes/s: 512 kbit/s and the records'
    /// framing); a faster one keeps less than its delay, and says so.
    public static let maximumBytesPerSecond: Int64 = 72_000
    /// Free space always left on the journal's file system (bytes): /run is the system's.
    public static let reserveBytes: Int64 = 16 << 20
    /// The most bytes the files may hold: the kept time at `maximumBytesPerSecond`.
    public var maximumBytes: Int64 { keepNanoseconds / 1_000_000_000 * Self.maximumBytesPerSecond }
    /// The bytes the files hold now.
    public var bytes: Int64 { files.reduce(0) { $0 + $1.bytes } }
    static let magic: [UInt8] = Array("DBXJ1\n".utf8)
    /// The most bytes one message may hold: a packet's payload is at most 64 KB, a title
    /// a few KB, a codec's set-up bytes 1 MB.
    static let maximumRecordBytes = 2 << 20

    /// - Parameters:
    ///   - bootID: this boot's id (`/proc/sys/kernel/random/boot_id`).
    ///   - clockZero: CLOCK_MONOTONIC (ns) where this process's `Instant`s begin.
    public init(directory: String, url: String, bootID: String, clockZero: Int64 = 0) {
        (self.directory, self.url, self.bootID, self.clockZero) = (directory, url, bootID, clockZero)
    }

    deinit { if file >= 0 { close(file) } }

    /// This boot's id, or nil where the kernel does not say.
    public static func currentBootID() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else {
            return nil
        }
        let id = text.filter { !$0.isWhitespace }
        return id.isEmpty ? nil : id
    }

    /// Keeps at least `milliseconds` (the delay in force) and a minute behind the newest message.
    public func keep(milliseconds: Int64) {
        keepNanoseconds = (max(0, min(milliseconds, 24 * 3_600_000)) + 60_000) * 1_000_000
    }

    /// The files' prefix for this link: its hash, so that another link's are never read.
    private var prefix: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "journal-" + String(hash, radix: 16) + "-"
    }

    // MARK: Reading

    /// What an earlier process of this boot journalled for this link, in order, up to
    /// `now`; empty when nothing is, or what is was written in another boot, for another
    /// link, or is damaged (read up to the damage). The files read are then this journal's
    /// own, trimmed like those it writes.
    public func recorded(before now: Instant) -> [StreamClient.Message] {
        var messages: [StreamClient.Message] = []
        replay(before: now) { messages.append($0) }
        return messages
    }

    /// `recorded(before:)` handed to `each` message by message, a file read at a time: a
    /// restart's memory is the engine's delay line and one file, not the whole journal.
    /// - Parameter reachable: the oldest time whose audio the delay in force plays; a
    ///   journal whose newest message is older (the box was stopped for longer than its
    ///   delay) is removed unread: its audio ends before where playout starts, and the gap
    ///   after it was taken for the arrivals' lag (the delay raised from 20 s to 87 s, and
    ///   silence while the new connection's audio came up to it).
    ///   - liveMarks: each live mark (`LiveMark`) read, in order with the messages.
    public func replay(
        before now: Instant, reachable: Instant? = nil, liveMarks: (LiveMark) -> Void = { _ in },
        _ each: (StreamClient.Message) -> Void
    ) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let found = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".bin") }.compactMap {
            name -> (start: Int64, path: String)? in
            guard let start = Int64(name.dropFirst(prefix.count).dropLast(4)) else { return nil }
            return (start, directory + "/" + name)
        }.sorted { $0.start < $1.start }
        if let reachable, let newest = found.last, let time = newestTime(in: newest.path, before: now), time < reachable
        {
            for (_, path) in found { unlink(path) }
            return
        }
        var last = Int64.min
        for (start, path) in found {
            guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else { continue }
            var reader = JournalReader(bytes)
            guard reader.header(bootID: bootID, url: url) else {
                unlink(path)
                continue
            }
            while let message = reader.message(shiftedBy: -clockZero) {
                let at = message.time.nanoseconds
                guard at >= last, at <= now.nanoseconds else { break }
                if let mark = reader.takeLiveMark() { liveMarks(mark) }
                // A file's codec opens the replay only where the connection's own went.
                if reader.readRepeatedCodec, last != .min { continue }
                last = at
                each(message)
            }
            if let mark = reader.takeLiveMark(), mark.at.nanoseconds >= last, mark.at <= now { liveMarks(mark) }
            files.append((start, path, Int64(bytes.count)))
        }
    }

    /// The time of the last message of this boot's journal of this link in `path` up to
    /// `now`; nil for none.
    private func newestTime(in path: String, before now: Instant) -> Instant? {
        guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else { return nil }
        var reader = JournalReader(bytes)
        guard reader.header(bootID: bootID, url: url) else { return nil }
        var newest: Instant?
        while let message = reader.message(shiftedBy: -clockZero), message.time <= now { newest = message.time }
        return newest
    }

    // MARK: Writing

    /// Appends where live is on the connection in progress (read back in order with the
    /// messages).
    public func record(_ mark: LiveMark) {
        guard problem == nil, file >= 0 else { return }
        var writer = JournalWriter()
        writer.liveMark(mark, shiftedBy: clockZero)
        write(writer.bytes)
    }

    /// Appends `message` (a `resolved` or `started` is not needed again: left out).
    public func record(_ message: StreamClient.Message) {
        guard problem == nil else { return }
        var writer = JournalWriter()
        guard writer.message(message, shiftedBy: clockZero) else { return }
        let at = message.time.nanoseconds + clockZero
        // A new file each minute, or each eighth of the bound: the oldest can then go
        // while most of the delay stays.
        if file < 0 || at - (files.last?.start ?? .min) >= Self.fileNanoseconds
            || (files.last?.bytes ?? 0) >= maximumBytes / 8
        {
            startFile(at: at)
            if file >= 0, let codec = connectionCodec, !message.opensAConnection {
                var repeated = JournalWriter()
                repeated.codec(codec, at: message.time, shiftedBy: clockZero)
                write(repeated.bytes)
            }
        }
        switch message {
        case .opened(let parameters, _): connectionCodec = parameters
        case .lost: connectionCodec = nil
        default: break
        }
        guard file >= 0 else { return }
        while files.count > 1, bytes + Int64(writer.bytes.count) > maximumBytes { unlink(files.removeFirst().path) }
        write(writer.bytes)
    }

    /// The free bytes of the journal's file system (`Int64.max` where it does not say).
    private func freeBytes() -> Int64 {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return .max }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    private func startFile(at start: Int64) {
        if file >= 0 { close(file) }
        file = -1
        mkdir(directory, 0o700)
        if !wroteBefore {
            // One channel is journalled: the one playing. Another link's files are a
            // channel played before a switch: nothing resumes them.
            wroteBefore = true
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names where name.hasPrefix("journal-") && !name.hasPrefix(prefix) {
                unlink(directory + "/" + name)
            }
        }
        let path = directory + "/" + prefix + String(start) + ".bin"
        file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            problem = "the delay journal cannot be written in \(directory): \(ErrorText.system(errno))"
            return
        }
        files.append((start, path, 0))
        var header = JournalWriter()
        header.header(bootID: bootID, url: url)
        write(header.bytes)
        // The oldest files hold nothing the delay in force can reach; and the file system
        // keeps its reserve for the next file's worth (asked once a file, not every packet).
        while files.count > 1,
            files[1].start < start - keepNanoseconds || freeBytes() < Self.reserveBytes + maximumBytes / 8
        {
            unlink(files.removeFirst().path)
        }
    }

    private func write(_ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + done, bytes.count - done) }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == ENOSPC, files.count > 1 {
                // Full: the oldest audio goes, the newest is kept.
                unlink(files.removeFirst().path)
                continue
            }
            guard written > 0 else {
                let why = ErrorText.system(errno)
                close(file)
                file = -1
                // Nothing of ours is left to leave /run full with.
                for kept in files { unlink(kept.path) }
                files.removeAll()
                problem = "the delay journal stopped: \(why) (a restart will start empty)"
                return
            }
            done += written
            files[files.count - 1].bytes += Int64(written)
        }
    }
}

extension StreamClient.Message {
    /// Whether it is a connection's opening (its codec).
    public var opensAConnection: Bool {
        if case .opened = self { return true }
        return false
    }

    /// When it happened.
    public var time: Instant {
        switch self {
        case .opened(_, let at), .started(_, let at), .packet(_, let at), .title(_, _, let at), .lost(_, let at),
            .resolved(_, _, let at):
            at
        }
    }
}

/// A journal's records: little-endian integers, length-prefixed bytes.
struct JournalWriter {
    private(set) var bytes: [UInt8] = []
    private var shift: Int64 = 0

    mutating func header(bootID: String, url: String) {
        bytes += DelayJournal.magic
        text(bootID)
        text(url)
    }

    /// Writes `message`, its time moved by `shift` (ns); false for one the journal leaves out.
    mutating func message(_ message: StreamClient.Message, shiftedBy shift: Int64 = 0) -> Bool {
        self.shift = shift
        switch message {
        case .opened(let parameters, let at):
            start(1, at)
            codecValues(parameters.record)
        case .packet(let packet, let at):
            start(packet.followsLostAudio ? 7 : 2, at)
            integer(packet.connectionTimestamp)
            integer(Int64(packet.durationFrames))
            integer(packet.receivedAheadFrames)
            data(packet.payload)
        case .title(let title, let timestamp, let at):
            start(3, at)
            integer(timestamp)
            text(title)
        case .lost(let reason, let at):
            start(4, at)
            text(reason)
        case .started, .resolved:
            return false
        }
        return true
    }

    mutating func liveMark(_ mark: LiveMark, shiftedBy shift: Int64) {
        self.shift = shift
        start(6, mark.at)
        integer(mark.connectionFrame)
        integer(Int64(bitPattern: mark.rate.bitPattern))
    }

    /// The codec of the connection in progress, repeated at `at` where a file begins.
    mutating func codec(_ parameters: CodecParameters, at: Instant, shiftedBy shift: Int64) {
        self.shift = shift
        start(5, at)
        codecValues(parameters.record)
    }

    private mutating func codecValues(_ codec: CodecRecord) {
        for value in [codec.codecID, codec.sampleRate, codec.channels, codec.format, codec.blockAlign, codec.frameSize]
        {
            integer(Int64(value))
        }
        integer(codec.bitRate)
        data(codec.extradata)
    }

    private mutating func start(_ kind: UInt8, _ at: Instant) {
        bytes.append(kind)
        integer(at.nanoseconds + shift)
    }

    mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func data(_ value: [UInt8]) {
        integer(Int64(value.count))
        bytes += value
    }

    mutating func text(_ value: String) { data(Array(value.utf8)) }
}

/// Reads what `JournalWriter` wrote, checking every length before using it: the file may
/// end in the middle of a record (a SIGKILL) or be anything at all.
struct JournalReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// Whether the last message read was a file's repeat of its connection's codec.
    private(set) var readRepeatedCodec = false
    /// A live mark read before the message last returned (or at the end).
    private var liveMark: LiveMark?

    mutating func takeLiveMark() -> LiveMark? {
        defer { liveMark = nil }
        return liveMark
    }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether the file begins as this boot's journal of `url` does.
    mutating func header(bootID: String, url: String) -> Bool {
        guard bytes.starts(with: DelayJournal.magic) else { return false }
        offset = DelayJournal.magic.count
        return text() == bootID && text() == url
    }

    /// The next message, its time moved by `shift` (ns), or nil at the end or at damage.
    /// A live mark read on the way is kept for `takeLiveMark()`.
    mutating func message(shiftedBy shift: Int64 = 0) -> StreamClient.Message? {
        while offset < bytes.count {
            let kind = bytes[offset]
            offset += 1
            guard let nanoseconds = integer(), nanoseconds >= 0, nanoseconds < Int64.max / 2 else { return nil }
            let at = Instant(nanoseconds: nanoseconds + shift)
            guard kind == 6 else {
                readRepeatedCodec = kind == 5
                return message(kind, at: at)
            }
            guard let frame = integer(), let rate = integer().map({ Double(bitPattern: UInt64(bitPattern: $0)) }),
                rate.isFinite
            else { return nil }
            liveMark = LiveMark(at: at, connectionFrame: frame, rate: rate)
        }
        return nil
    }

    /// The rest of a message of `kind` stamped `at`; nil for an unknown kind or damage.
    private mutating func message(_ kind: UInt8, at: Instant) -> StreamClient.Message? {
        switch kind {
        case 1, 5:
            var values: [Int32] = []
            for _ in 0..<6 {
                guard let value = integer(), let small = Int32(exactly: value) else { return nil }
                values.append(small)
            }
            guard let bitRate = integer(), let extradata = data() else { return nil }
            let record = CodecRecord(
                codecID: values[0], sampleRate: values[1], channels: values[2], format: values[3], bitRate: bitRate,
                blockAlign: values[4], frameSize: values[5], extradata: extradata)
            guard let parameters = try? CodecParameters(record: record) else { return nil }
            return .opened(parameters, at: at)
        case 2, 7:
            guard let timestamp = integer(), let duration = integer(), let ahead = integer(), let payload = data(),
                let frames = Int(exactly: duration)
            else { return nil }
            var packet = StreamPacket(
                payload: payload, connectionTimestamp: timestamp, durationFrames: frames, receivedAheadFrames: ahead)
            packet.followsLostAudio = kind == 7
            return .packet(packet, at: at)
        case 3:
            guard let timestamp = integer(), let title = text() else { return nil }
            return .title(title, connectionTimestamp: timestamp, at: at)
        case 4:
            guard let reason = text() else { return nil }
            return .lost(reason, at: at)
        default:
            return nil
        }
    }

    private mutating func integer() -> Int64? {
        guard bytes.count - offset >= 8 else { return nil }
        var value: Int64 = 0
        for index in 0..<8 { value |= Int64(bytes[offset + index]) << (8 * index) }
        offset += 8
        return value
    }

    private mutating func data() -> [UInt8]? {
        guard let count = integer(), count >= 0, count <= DelayJournal.maximumRecordBytes, bytes.count - offset >= count
        else { return nil }
        defer { offset += Int(count) }
        return Array(bytes[offset..<offset + Int(count)])
    }

    private mutating func text() -> String? { data().map { String(decoding: $0, as: UTF8.self) } }
}
