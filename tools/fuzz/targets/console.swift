// Fuzz target: the console's two doors' shared front end — the line editor (serial line,
// control socket) and the command language (also MQTT's and the web page's).
import DelayboxConsole

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var editor = LineEditor(maxLength: 64, completer: { ConsoleLanguage.completions(for: $0) })
    let output = editor.feed(bytes)
    for line in output.lines { _ = ConsoleLanguage.parse(line) }
    _ = ConsoleLanguage.parse(String(decoding: bytes, as: UTF8.self))
    _ = editor.printAbove("a log line")
    return 0
}
