import Driver
import Physics
import SceneModel
import Session

/// The classic crate demo, built in code: a 300×300 box of four walls, gravity 1000 px/s² down,
/// five crates of mass 100 (friction 0.5, elasticity 0.8).
public func makeBookWorld() throws -> World {
    let world = try World(gravity: Vec2(0, -1000))
    let corners = [Vec2(0, 0), Vec2(300, 0), Vec2(300, 300), Vec2(0, 300)]
    for i in 0..<4 {
        try world.addWall(WallSpec(from: corners[i], to: corners[(i + 1) % 4], radius: 1, friction: 0.5, elasticity: 0.8))
    }
    // The book's y-down frames (x, y, w, h) become centres (x + w/2, 300 − y − h/2).
    let frames: [(x: Double, y: Double, w: Double, h: Double)] = [(0, 0, 32, 32), (32, 0, 32, 32), (64, 0, 64, 64),
                                                                 (128, 0, 32, 32), (0, 32, 64, 64)]
    for f in frames {
        try world.addCrate(CrateSpec(center: Vec2(f.x + f.w / 2, 300 - f.y - f.h / 2), size: Vec2(f.w, f.h),
                                     mass: 100, friction: 0.5, elasticity: 0.8))
    }
    return world
}

/// Drives `world` through the fixed-step driver for `seconds` of simulated time, frames coming
/// from a simulated 60 fps clock (offline: every owed step is taken).
public func drive(_ world: World, seconds: DecimalSeconds) -> RunResult {
    let configuration = DriverConfiguration(stepRate: world.stepRate, fps: 60, guardEnabled: false)
    let loop = RunLoop(simulation: world, configuration: configuration, clock: VirtualFrameClock(fps: 60),
                       stopwatch: MonotonicStopwatch(), duration: seconds, capturesSnapshots: false)
    return loop.run(shouldStop: { false })
}
