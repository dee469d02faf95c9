import DelayboxEngine

/// A stream event taking effect at one output frame of the engine's render: what the
/// programme mix acts on (from `PlaybackEngine.pendingNotifications`).
public struct EventEffect: Sendable, Equatable {
    public var event: StreamEvent
    public var transition: EventTransition
    /// Frames after the first frame of the render.
    public var offset: Int
    /// Frames of the event already past at playout when it takes effect (a jump into an
    /// ad break: the ad plays from there, for what is left of the break).
    public var elapsedFrames: Int64

    public init(event: StreamEvent, transition: EventTransition, offset: Int, elapsedFrames: Int64 = 0) {
        self.event = event
        self.transition = transition
        self.offset = offset
        self.elapsedFrames = elapsedFrames
    }

    /// The effects among `notifications` that fall in the render of `frames` frames
    /// starting at engine frame `firstFrame`, in order.
    public static func collect(from notifications: [EngineNotification], firstFrame: Int64, frames: Int)
        -> [EventEffect]
    {
        notifications.compactMap { notification in
            guard case .eventTookEffect(let event, let transition, let frame, let elapsed) = notification,
                frame >= firstFrame, frame < firstFrame + Int64(frames)
            else { return nil }
            return EventEffect(
                event: event.event, transition: transition, offset: Int(frame - firstFrame), elapsedFrames: elapsed)
        }
    }
}
