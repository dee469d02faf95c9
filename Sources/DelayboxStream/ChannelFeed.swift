import DelayboxEngine

/// What feeds a channel's engine from its own thread — the stream client, or the line-in
/// capture — posting what happens to an inbox that the playout thread drains before each
/// render (the engine has one owner).
public protocol ChannelFeed: Sendable {
    /// Starts the feed's thread.
    func start()
    /// Ends the thread; blocks until it is done. A second call returns at once.
    func stop()
    /// Takes what happened since the last call, in order.
    func drain() -> [StreamClient.Message]
}
