/// The board's `config.txt` lines (`board.config_txt`) in the Pi's boot configuration
/// (`/boot/firmware/config.txt`), as `delaybox board NAME` writes them: one marked block,
/// replaced whole when the board changes, so the file's own lines stay as its owner left
/// them and running it twice changes nothing.
public enum BootConfigBlock {
    static let begin = "# Delaybox: the board's lines (delaybox board; this block is rewritten by it)"
    static let end = "# Delaybox: end"

    /// `text` with `lines` as its Delaybox block (lines already elsewhere in the file left
    /// out), and the lines that are new to the file; `changed` false when the file stays.
    public static func apply(_ lines: [String], to text: String) -> (text: String, added: [String], changed: Bool) {
        var outside: [Substring] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == begin { inBlock = true; continue }
            if inBlock {
                if line == end { inBlock = false }
                continue
            }
            outside.append(line)
        }
        while outside.last == "" { outside.removeLast() }
        // Lines the file has itself count as there only outside any section (`[pi4]`).
        var present = Set<String>()
        var section = "[all]"
        for line in outside.map({ $0.withoutSurroundingBlanks() }) {
            if line.hasPrefix("[") { section = line } else if section == "[all]" { present.insert(line) }
        }
        let block = lines.filter { !present.contains($0) }
        let anywhere = Set(text.split(separator: "\n"))
        let added = block.filter { !anywhere.contains(Substring($0)) }
        var result = outside.map(String.init)
        // `[all]` first: the file may end in a section for another model (`[cm5]`).
        if !block.isEmpty { result += (result.isEmpty ? [] : [""]) + [begin, "[all]"] + block + [end] }
        let newText = result.joined(separator: "\n") + (result.isEmpty ? "" : "\n")
        return (newText, added, newText != text)
    }
}

extension Substring {
    fileprivate func withoutSurroundingBlanks() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
