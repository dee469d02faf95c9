import DelayboxConsole
import Testing

/// One typed reply, rendered by each door: the console's lines or JSON, and a refusal's
/// `error: …` only in the console's text.
@Suite(.timeLimit(.minutes(10))) struct ConsoleReplyTests {
    struct Answer: Encodable {
        var result = "ok"
        var delayMs: Int64 = 45_000
        var building: Int?

        enum CodingKeys: String, CodingKey {
            case result
            case delayMs = "delay_ms"
            case building
        }
    }

    @Test func anAnswerIsItsLinesInOrderOrOneObjectWithSortedKeys() {
        let reply = ConsoleReply.answer(Answer())
        #expect(reply.kind == .ok && reply.reason == nil)
        #expect(reply.rendered(json: false) == "result: ok\ndelay_ms: 45000")
        #expect(reply.rendered(json: true) == #"{"delay_ms":45000,"result":"ok"}"#)
    }

    @Test func aListsTextIsForPeopleAndItsFieldsForJSON() {
        let reply = ConsoleReply.answer(Answer(), text: "* Demo\n  Club")
        #expect(reply.rendered(json: false) == "* Demo\n  Club")
        #expect(reply.rendered(json: true) == #"{"delay_ms":45000,"result":"ok"}"#)
        #expect(ConsoleReply.text("usage: pause").rendered(json: true) == "usage: pause", "help has no fields")
    }

    @Test func aRefusalSaysErrorOnlyInTheConsolesText() {
        let refused = ConsoleReply.refusal(.refused, "preset 4 is empty")
        #expect(refused.kind == .refused && refused.reason == "preset 4 is empty")
        #expect(refused.rendered(json: false) == "error: preset 4 is empty")
        #expect(refused.rendered(json: true) == "error: preset 4 is empty")
        #expect(ConsoleReply.refusal(.ok, "no kind").kind == .refused, "a refusal is never ok")
        let usage = ConsoleReply.usage(ConsoleError("usage: tone on | tone off"))
        #expect(usage.kind == .usage && usage.reason == "usage: tone on | tone off")
    }

    @Test func aCommandRefusedWithItsFieldsShowsThemAndIsStillRefused() {
        let reply = ConsoleReply.refused(Answer(result: "refused: preset 4 is empty"))
        #expect(reply.kind == .refused && reply.reason == nil)
        #expect(reply.rendered(json: false).hasPrefix("result: refused: preset 4 is empty\n"))
    }

    @Test func everyLineTheLanguageCannotReadIsAUsageReply() {
        for line in ["dealy 3", "delay soon", "preset 12", "tone loud", "log tail 5000"] {
            guard case .failure(let error)? = ConsoleLanguage.parse(line) else {
                Issue.record("\(line) was understood")
                continue
            }
            #expect(ConsoleReply.usage(error).kind == .usage, "\(line)")
        }
        #expect(ConsoleLanguage.helpReply("nothing").kind == .usage)
        #expect(ConsoleLanguage.helpReply("delay").kind == .ok)
    }
}
