import Testing

@testable import DelayboxCommands

/// "Did you mean …?" for a word of the console language, a config key or value.
@Suite(.timeLimit(.minutes(10))) struct SuggestionTests {
    @Test func aTypoOfOneEditOrASwapFindsItsWord() {
        let words = ["delay", "volume", "status", "channel"]
        #expect(Suggestion.closest(to: "dealy", among: words) == "delay")
        #expect(Suggestion.closest(to: "volme", among: words) == "volume")
        #expect(Suggestion.closest(to: "STATSU", among: words) == "status")
        #expect(
            Suggestion.message("unknown command 'chanel'", for: "chanel", among: words)
                == "unknown command 'chanel'; did you mean 'channel'?")
    }

    @Test func aWordTooFarFromEveryCandidateHasNoSuggestion() {
        let words = ["delay", "volume"]
        #expect(Suggestion.closest(to: "xyz", among: words) == nil)
        #expect(Suggestion.closest(to: "delayed-by-an-hour", among: words) == nil)
        #expect(Suggestion.message("unknown", for: "zzzzzz", among: words) == "unknown")
    }

    /// A line of 8 KB from the web page or MQTT is compared only with candidates within the
    /// edit limit of its length (the others cannot be close): still found when near, and
    /// (without that pruning this took 10 s in a debug build) never a table of 8,000 × each.
    @Test func aVeryLongWordIsComparedOnlyWithWordsOfItsLength() {
        let long = String(repeating: "a", count: 8_000)
        #expect(Suggestion.closest(to: long, among: ["delay", String(repeating: "a", count: 7_996)]) == nil)
        let line = String(repeating: "a", count: 300)
        #expect(Suggestion.closest(to: line, among: ["delay", String(repeating: "a", count: 298) + "b"]) != nil)
    }

    @Test func theDistanceCountsASwapOfNeighboursAsOneEdit() {
        #expect(Suggestion.distance(Array("dealy"), Array("delay")) == 1)
        #expect(Suggestion.distance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.distance(Array("kitten"), Array("sitting")) == 3)
    }
}
