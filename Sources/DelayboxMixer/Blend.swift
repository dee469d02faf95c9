import DelayboxEngine

/// The mixer's inner loops: a run of interleaved stereo frames times a source's level
/// (steady or ramping) and pan, added to the mix or applied in place. Each case is a
/// plain loop over samples that the compiler vectorises: this is where a mix spends its
/// time (docs/performance.md, `mix_cost_vs_decode`).
enum Blend {
    /// `target += run × level × pan` for `count` frames; advances `ramp`.
    static func add(
        _ run: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>, count: Int,
        ramp: inout LevelRamp, pan: (left: Float, right: Float)
    ) {
        let samples = count * AudioFormat.channelCount
        if ramp.isSettled {
            let left = ramp.level * pan.left, right = ramp.level * pan.right
            if left == right {
                if left == 1 {
                    for index in 0..<samples { target[index] += run[index] }
                } else if left != 0 {
                    for index in 0..<samples { target[index] += run[index] * left }
                }
            } else {
                for index in 0..<count {
                    target[2 * index] += run[2 * index] * left
                    target[2 * index + 1] += run[2 * index + 1] * right
                }
            }
            return
        }
        let (base, step, ramping) = ramp.plan(frames: count)
        if pan.left == pan.right {
            // Sample `i` belongs to frame `i / 2`: one expression per sample.
            let (scaledBase, scaledStep) = (base * pan.left, step * pan.left)
            for index in 0..<ramping * AudioFormat.channelCount {
                target[index] += run[index] * (scaledBase + scaledStep * Float(index >> 1))
            }
        } else {
            for index in 0..<ramping {
                let gain = base + step * Float(index)
                target[2 * index] += run[2 * index] * gain * pan.left
                target[2 * index + 1] += run[2 * index + 1] * gain * pan.right
            }
        }
        let left = ramp.target * pan.left, right = ramp.target * pan.right
        for index in ramping..<count {
            target[2 * index] += run[2 * index] * left
            target[2 * index + 1] += run[2 * index + 1] * right
        }
        ramp.advance(frames: count)
    }

    /// `target ×= level × pan` for `count` frames, in place; advances `ramp`. At unity and
    /// centre it touches nothing.
    static func scale(
        _ target: UnsafeMutablePointer<Float>, count: Int, ramp: inout LevelRamp, pan: (left: Float, right: Float)
    ) {
        let samples = count * AudioFormat.channelCount
        if ramp.isSettled {
            let left = ramp.level * pan.left, right = ramp.level * pan.right
            if left == right {
                if left != 1 { for index in 0..<samples { target[index] *= left } }
            } else {
                for index in 0..<count {
                    target[2 * index] *= left
                    target[2 * index + 1] *= right
                }
            }
            return
        }
        let (base, step, ramping) = ramp.plan(frames: count)
        for index in 0..<ramping {
            let gain = base + step * Float(index)
            target[2 * index] *= gain * pan.left
            target[2 * index + 1] *= gain * pan.right
        }
        let left = ramp.target * pan.left, right = ramp.target * pan.right
        for index in ramping..<count {
            target[2 * index] *= left
            target[2 * index + 1] *= right
        }
        ramp.advance(frames: count)
    }
}
