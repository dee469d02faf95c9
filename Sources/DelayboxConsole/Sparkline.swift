/// A row of block characters for a series of values (`▁▂▃▄▅▆▇█`), scaled from the
/// smallest to the largest value shown, for `stats watch`.
public enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public static func render(_ values: [Double]) -> String {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return "" }
        let span = high - low
        return String(
            values.map { value -> Character in
                guard value.isFinite else { return " " }
                guard span > 0 else { return blocks[0] }
                return blocks[min(blocks.count - 1, Int((value - low) / span * Double(blocks.count - 1) + 0.5))]
            })
    }
}
