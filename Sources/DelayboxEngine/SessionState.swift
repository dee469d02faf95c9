/// The listener-visible state of a playback session, modelled on commercial listener SDKs.
public enum SessionState: String, Sendable, CaseIterable, Codable {
    /// Created, not started.
    case idle
    /// Opening the first connection to the channel.
    case connecting
    /// Waiting until enough audio is held to play at the set delay.
    case buffering
    /// Audio is being played out.
    case playing
    /// Playout held by the listener; recording goes on (time-shift).
    case paused
    /// The connection was lost; buffered audio keeps playing while the client reconnects.
    case reconnecting
    /// Stopped on request.
    case stopped
    /// Gave up: an error that retrying cannot fix (e.g. unsupported codec).
    case failed
}

/// Why the session changed state; every state change carries one.
public enum StateChangeReason: Sendable, Equatable, CustomStringConvertible {
    case startRequested
    case firstAudioReceived
    case bufferFilled
    case reachedLiveEdge
    /// A delay longer than the audio held was set: playout waits until it is there.
    case buildingDelay
    case pauseRequested
    case resumeRequested
    case connectionLost(String)
    case reconnected
    case stopRequested
    /// Another channel plays; this one goes on recording (`Channel.record`).
    case standingBy
    case failure(String)

    public var description: String {
        switch self {
        case .startRequested: "start requested"
        case .firstAudioReceived: "first audio received"
        case .bufferFilled: "buffer filled"
        case .reachedLiveEdge: "playout reached the live edge"
        case .buildingDelay: "building the delay set"
        case .pauseRequested: "pause requested"
        case .resumeRequested: "resume requested"
        case .connectionLost(let why): "connection lost: \(why)"
        case .reconnected: "reconnected"
        case .stopRequested: "stop requested"
        case .standingBy: "another channel plays; recording goes on"
        case .failure(let why): "failed: \(why)"
        }
    }
}
