/// What the box publishes on `<prefix>/reply` of its own (docs/mqtt.md): the command it
/// answers, and an error, or for an update in stages `result: ok` and where it stands.
/// (A command's console answer is published as that answer with `command` added.)
struct MQTTReply: Encodable {
    var command: String?
    var result: String?
    var update: String?
    var error: String?
}
