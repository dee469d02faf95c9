import Glibc

extension String {
    /// C's printf formatting (`%.1f`, `%8.2f`, `%d`), as Foundation's `String(format:)`
    /// did, through the C library's `vsnprintf` (Foundation is not linked into the firmware).
    public init(printf format: String, _ arguments: any CVarArg...) {
        // The length first (a va_list is used once), then the text.
        let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
        guard length > 0 else { self = ""; return }
        var buffer = [UInt8](repeating: 0, count: length + 1)
        _ = withVaList(arguments) { list in
            buffer.withUnsafeMutableBufferPointer {
                vsnprintf(
                    $0.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }, $0.count,
                    format, list)
            }
        }
        self = String(decoding: buffer.dropLast(), as: UTF8.self)
    }
}
