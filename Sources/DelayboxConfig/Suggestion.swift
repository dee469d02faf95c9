/// "Did you mean …?" for a misspelt key or value.
enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a
    /// plausible typo (at most a third of the word's length, at least 1, at most 3).
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// `text` followed by "; did you mean 'x'?" when there is a close candidate.
    static func message(_ text: String, for word: String, among candidates: [String]) -> String {
        guard let close = closest(to: word, among: candidates) else { return text }
        return text + "; did you mean '\(close)'?"
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
