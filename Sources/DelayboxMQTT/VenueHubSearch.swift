import DelayboxNetwork

/// The venue hubs a box hears on its LAN (issue 70): one multicast DNS question for the
/// hubs' service type (`VenueHubFiles.serviceType`, which a hub's Avahi announces), asked
/// from an ordinary port — RFC 6762's "legacy unicast" query, which Avahi answers straight
/// to that port with the whole service (PTR, SRV, TXT and the host's addresses) in one
/// packet. The hub is reached at the address its answer came from (one that reached this
/// box, where an announced address may be another network's). Every answer is a stranger's bytes: each length, pointer and value is checked
/// before it is used, and a hub whose parts do not read is left out.
public enum VenueHubSearch {
    /// mDNS's group and port (RFC 6762).
    public static let group = "224.0.0.251"
    public static let port: UInt16 = 5353

    /// The question: the service type's PTR records, under `id` (the answer echoes it).
    public static func query(id: UInt16) -> [UInt8] {
        var packet: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xff), 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
        for label in serviceLabels {
            packet.append(UInt8(label.utf8.count))
            packet += label.utf8
        }
        packet += [0, 0, RecordType.pointer.rawValue, 0, 1]
        return packet
    }

    /// Hubs kept from one question at most: anyone on the LAN may answer, with many.
    public static let largestHeard = 32

    /// The hubs all `answers` to the question `id` tell of, each once (by name and group),
    /// at most `largestHeard`; `source` is the IPv4 address an answer came from.
    public static func hubs(in answers: [(bytes: [UInt8], source: String)], id: UInt16) -> [HeardHub] {
        var heard: [HeardHub] = []
        for answer in answers {
            for hub in hubs(in: answer.bytes, id: id, source: answer.source)
            where heard.count < largestHeard && !heard.contains(where: { $0.name == hub.name && $0.group == hub.group })
            {
                heard.append(hub)
            }
        }
        return heard
    }

    /// The hubs one answer to the question `id` tells of; `source` is the IPv4 address the
    /// answer came from.
    public static func hubs(in packet: [UInt8], id: UInt16, source: String) -> [HeardHub] {
        guard var reader = Reader(packet), let answerID = reader.u16(), answerID == id, let flags = reader.u16(),
            flags & 0x8000 != 0, flags & 0x000f == 0, let questions = reader.u16(), let answers = reader.u16(),
            let authorities = reader.u16(), let additionals = reader.u16()
        else { return [] }
        for _ in 0..<questions {
            guard reader.name() != nil, reader.skip(4) else { return [] }
        }
        var records = Records()
        for _ in 0..<(Int(answers) + Int(authorities) + Int(additionals)) {
            guard reader.record(into: &records) else { break }
        }
        return records.hubs(source: source)
    }

    static let serviceLabels = ["_delaybox-hub", "_tcp", "local"]

    enum RecordType: UInt8 {
        case pointer = 12
        case text = 16
        case service = 33
    }

    /// A name as lower-cased labels (DNS compares names without case).
    typealias Name = [String]

    /// What the answer's records said, by owner name.
    struct Records {
        var instances: [Name] = []
        var ports: [Name: Int] = [:]
        var texts: [Name: [String: String]] = [:]
        var displayNames: [Name: String] = [:]

        func hubs(source: String) -> [HeardHub] {
            var seen = Set<Name>()
            return instances.compactMap { instance in
                guard seen.insert(instance).inserted, let pagePort = ports[instance],
                    let text = texts[instance], let group = text["group"],
                    (try? VenueJoinCode.name(group, "group")) != nil, let name = displayNames[instance]
                else { return nil }
                let broker = text["mqtt"].map { Int($0) ?? 0 } ?? 1883
                guard (1...65535).contains(broker) else { return nil }
                return HeardHub(
                    name: name, group: group, address: source, pagePort: pagePort,
                    brokerPort: broker)
            }
        }
    }

    /// Reads a DNS message front to back; nil or false when a length runs past its end.
    struct Reader {
        let bytes: [UInt8]
        var at = 0

        init?(_ bytes: [UInt8]) {
            guard (12...9_000).contains(bytes.count) else { return nil }
            self.bytes = bytes
        }

        mutating func u16() -> UInt16? {
            guard at + 2 <= bytes.count else { return nil }
            defer { at += 2 }
            return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, at + count <= bytes.count else { return false }
            at += count
            return true
        }

        /// A name at the cursor (the cursor moves past it), following compression pointers
        /// only backwards, so a loop cannot be made; the labels as written, at most 255 bytes.
        mutating func name() -> [String]? {
            guard let (labels, end) = Self.name(in: bytes, from: at) else { return nil }
            at = end
            return labels
        }

        static func name(in bytes: [UInt8], from start: Int) -> ([String], Int)? {
            var (labels, cursor, end, length, floor) = ([String](), start, Int?.none, 0, start)
            while cursor < bytes.count {
                let size = Int(bytes[cursor])
                if size == 0 { return (labels, end ?? cursor + 1) }
                if size & 0xc0 == 0xc0 {
                    guard cursor + 1 < bytes.count else { return nil }
                    let target = (size & 0x3f) << 8 | Int(bytes[cursor + 1])
                    guard target < floor else { return nil }
                    end = end ?? cursor + 2
                    (cursor, floor) = (target, target)
                    continue
                }
                length += size + 1
                guard size < 64, cursor + 1 + size <= bytes.count, length <= 255 else { return nil }
                labels.append(String(decoding: bytes[(cursor + 1)..<(cursor + 1 + size)], as: UTF8.self))
                cursor += 1 + size
            }
            return nil
        }

        /// One resource record, what it tells kept in `records`; false when it does not read.
        mutating func record(into records: inout Records) -> Bool {
            guard let owner = name(), let type = u16(), skip(2 + 4), let length = u16(),
                at + Int(length) <= bytes.count
            else { return false }
            let (start, end) = (at, at + Int(length))
            at = end
            let key = owner.map { $0.lowercased() }
            switch RecordType(rawValue: type <= 0xff ? UInt8(type) : 0) {
            case .pointer where key == VenueHubSearch.serviceLabels.map { $0.lowercased() }:
                guard let (instance, used) = Self.name(in: bytes, from: start), used <= end,
                    let label = instance.first,
                    label.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
                else { break }
                let instanceKey = instance.map { $0.lowercased() }
                records.instances.append(instanceKey)
                records.displayNames[instanceKey] = label
            case .service:
                guard length >= 7 else { break }
                let port = Int(bytes[start + 4]) << 8 | Int(bytes[start + 5])
                if port > 0 { records.ports[key] = port }
            case .text:
                var cursor = start
                var pairs: [String: String] = [:]
                while cursor < end {
                    let size = Int(bytes[cursor])
                    guard cursor + 1 + size <= end else { break }
                    let entry = String(decoding: bytes[(cursor + 1)..<(cursor + 1 + size)], as: UTF8.self)
                    if let equals = entry.firstIndex(of: "=") {
                        pairs[String(entry[..<equals]).lowercased()] = String(entry[entry.index(after: equals)...])
                    }
                    cursor += 1 + size
                }
                records.texts[key] = pairs
            default:
                break
            }
            return true
        }
    }
}

/// A venue hub heard on the LAN: its announced name, its group, where its page and broker are.
public struct HeardHub: Codable, Equatable, Sendable {
    /// The announcement's name (`Delaybox venue pub on bar-screen1`).
    public var name: String
    public var group: String
    /// The IPv4 address its answer came from.
    public var address: String
    /// Its page's port (HTTP) and its broker's.
    public var pagePort: Int
    public var brokerPort: Int

    public init(name: String, group: String, address: String, pagePort: Int, brokerPort: Int) {
        (self.name, self.group, self.address, self.pagePort, self.brokerPort) =
            (name, group, address, pagePort, brokerPort)
    }

    enum CodingKeys: String, CodingKey {
        case name, group, address
        case pagePort = "page_port"
        case brokerPort = "broker_port"
    }
}
