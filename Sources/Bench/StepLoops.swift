import Physics
import SceneModel

// The measured loops, kept out of line so a profiler can count exactly their instructions:
//   valgrind --tool=callgrind --toggle-collect='*measuredSwiftStepLoop*' ...
//   valgrind --tool=callgrind --toggle-collect='cbaseline_step' ...

/// `steps` steps through CrateDrop's world, copying a snapshot out after each when `snapshots`
/// (what the driver does when frames are drawn).
@inline(never)
package func measuredSwiftStepLoop(_ world: World, steps: Int, snapshots: Bool) -> Int {
    var bodies = 0
    for _ in 0..<steps {
        world.step()
        if snapshots { bodies &+= world.snapshot().bodies.count }
    }
    return bodies
}

/// `count` snapshot copies, with no stepping, to price the copy alone.
@inline(never)
func measuredSnapshotLoop(_ world: World, count: Int) -> Int {
    var bodies = 0
    for _ in 0..<count { bodies &+= world.snapshot().bodies.count }
    return bodies
}
