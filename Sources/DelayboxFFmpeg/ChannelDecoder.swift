import DelayboxEngine

/// The decoder a read head owns for the life of the engine: it decodes with an
/// `FFmpegDecoder` for the codec parameters of the current connection, set when the
/// connection opens (the engine's decoders exist before the first connection does).
///
/// A reconnect to the same stream keeps the decoder; different parameters (another
/// codec, rate or layout) replace it. Decoding before any parameters were set throws,
/// which the engine plays as silence.
public final class ChannelDecoder: PacketDecoder {
    public struct NotConfigured: Error {}

    private var decoder: FFmpegDecoder?
    private var parameters: CodecParameters?

    public init() {}

    public var prerollPackets: Int { decoder?.prerollPackets ?? 0 }

    /// Uses `parameters` from now on (allocates; call it from the playout thread between renders).
    public func configure(_ parameters: CodecParameters) throws {
        if let current = self.parameters, current.matches(parameters) { return }
        decoder = try FFmpegDecoder(parameters: parameters)
        self.parameters = parameters
    }

    public func decode(
        _ payload: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableBufferPointer<Float>
    ) throws -> Int {
        guard let decoder else { throw NotConfigured() }
        return try decoder.decode(payload, frameCount: frameCount, into: output)
    }

    public func reset() { decoder?.reset() }
}
