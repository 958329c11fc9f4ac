import SceneModel

extension SplitMix64 {
    /// A whole number uniform in 0 ..< bound (bound > 0), without modulo bias: draws past the
    /// largest multiple of `bound` are drawn again.
    mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "a draw needs at least one value")
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let draw = next()
            if draw < limit { return draw % bound }
        }
    }
}
