import SceneModel

/// Saved states of one world in step order, oldest first, with their total size: the live
/// history's ring (`LiveHistory`). Never empty once a state is in it: the dropping calls keep
/// at least one.
struct StateRing {
    private var states: [WorldState] = []
    /// Bytes the states take (their physics, and the transforms kept beside them; the rest is a
    /// few words).
    private(set) var bytes = 0

    var count: Int { states.count }
    /// The oldest state's step (the ring is not empty).
    var oldestStep: Int { states[0].step }

    /// Adds a state newer than every state kept (a state of a step already kept replaces it).
    mutating func append(_ state: WorldState) {
        precondition(states.last.map { $0.step <= state.step } ?? true, "states join the ring in step order")
        if states.last?.step == state.step { bytes -= states.removeLast().memoryBytes }
        states.append(state)
        bytes += state.memoryBytes
    }

    /// The newest state at or before `step`, if any.
    func newest(atOrBefore step: Int) -> WorldState? {
        states.last { $0.step <= step }
    }

    /// Drops the states after `step`.
    mutating func dropNewer(than step: Int) {
        while let last = states.last, last.step > step, states.count > 1 { bytes -= states.removeLast().memoryBytes }
    }

    /// Drops the oldest states while the next one is still at or before `step`: one state at or
    /// before `step` stays, for a rewind to it.
    mutating func dropOlder(keepingAtOrBefore step: Int) {
        var drop = 0
        while drop + 1 < states.count, states[drop + 1].step <= step { drop += 1 }
        removeOldest(drop)
    }

    /// Drops the oldest states while they hold more than `limit` bytes, keeping the newest and
    /// one at or before `step`.
    mutating func fit(bytes limit: Int, keepingAtOrBefore step: Int) {
        var drop = 0, total = bytes
        while total > limit, drop + 1 < states.count, states[drop + 1].step <= step {
            total -= states[drop].memoryBytes
            drop += 1
        }
        removeOldest(drop)
    }

    private mutating func removeOldest(_ count: Int) {
        guard count > 0 else { return }
        for state in states[..<count] { bytes -= state.memoryBytes }
        states.removeFirst(count)
    }
}
