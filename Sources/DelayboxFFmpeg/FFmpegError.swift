import CFFmpeg

/// A failed FFmpeg call: which one, its return code, and FFmpeg's own message.
public struct FFmpegError: Error, CustomStringConvertible, Equatable {
    /// The C function that failed, e.g. `avformat_open_input`.
    public var operation: String
    /// FFmpeg's negative error code.
    public var code: Int32
    /// What FFmpeg logged as an error on this thread during the call, e.g. `Peer
    /// certificate failed verification` behind a plain `Input/output error`.
    public var detail: String?

    public init(operation: String, code: Int32, detail: String? = nil) {
        self.operation = operation
        self.code = code
        self.detail = detail
    }

    /// FFmpeg's text for the code (the corresponding C function is `av_strerror`).
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(operation): \(message)" + (detail.map { " (\($0))" } ?? "") }

    public var isEndOfFile: Bool { code == dbx_averror_eof() }
    /// The interrupt callback stopped the call (stop requested or no data in time).
    public var isInterrupted: Bool { code == dbx_averror_exit() }
    public var isNotFound: Bool { code == dbx_averror_http_not_found() }

    /// Returns `code` when it is not negative, throws otherwise.
    @discardableResult
    static func check(_ code: Int32, _ operation: String) throws(FFmpegError) -> Int32 {
        guard code >= 0 else { throw FFmpegError(operation: operation, code: code, detail: FFmpegLog.lastError()) }
        return code
    }
}
