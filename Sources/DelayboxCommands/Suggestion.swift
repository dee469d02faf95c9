/// "Did you mean …?" for a misspelt command, key or value.
public enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a
    /// plausible typo (at most a third of the word's length, at least 1, at most 3).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        let typed = Array(word.lowercased())
        // The distance is at least the difference of the lengths: skipping the candidates
        // that differ by more keeps a line of 8 KB from the web page or MQTT linear, not
        // a table of its length times each candidate's.
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let known = Array(candidate.lowercased())
            guard abs(known.count - typed.count) <= limit else { return nil }
            return (candidate, distance(typed, known))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// `text` followed by "; did you mean 'x'?" when there is a close candidate.
    public static func message(_ text: String, for word: String, among candidates: [String]) -> String {
        guard let close = closest(to: word, among: candidates) else { return text }
        return text + "; did you mean '\(close)'?"
    }

    /// Edit distance counting an insertion, a deletion, a substitution or a swap of two
    /// neighbours (the commonest typo: `dealy`) as one edit (optimal string alignment).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
