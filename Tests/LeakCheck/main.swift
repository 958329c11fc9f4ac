// Exercises every ownership path of the physics layer once, for a leak checker to watch:
//   valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 .build/debug/leak-check
// Crates are added, stepped, removed, re-added to a second world; a world is dropped while its
// crates and a wall are still referenced; a tumbler (kinematic body) world is dropped; joints are
// added, removed, copied and dropped with their world while one is still referenced; a force is
// held; a shipped scene is built and stepped.
import Physics
import SceneFile
import SceneModel

func crate(_ x: Double) -> CrateSpec {
    CrateSpec(center: Vec2(x, 100), size: Vec2(10, 10), mass: 1, friction: 0.5, elasticity: 0.2)
}

var survivors: [Crate] = []
var strayWall: Wall?
do {
    let world = try World(gravity: Vec2(0, -1000))
    strayWall = try world.addWall(WallSpec(from: Vec2(0, 0), to: Vec2(400, 0), radius: 1, friction: 0.5, elasticity: 0.5))
    try world.addWall(WallSpec(from: Vec2(0, 0), to: Vec2(0, 400), radius: 1, friction: 0.5, elasticity: 0.5))
    for i in 0..<200 {
        let c = try world.addCrate(crate(Double(10 + i % 30 * 12)))
        if i % 3 == 0 { try world.remove(c) } else if i % 3 == 1 { survivors.append(c) }
        world.step()
    }
    if let wall = world.walls.last { try world.remove(wall) }
}
do {
    let tumbling = try World(gravity: Vec2(0, -1000))
    try tumbling.addTumbler(TumblerSpec(center: Vec2(200, 200), size: Vec2(300, 300), angularVelocity: 1, radius: 2,
                                        friction: 0.5, elasticity: 0.1))
    for i in 0..<20 { try tumbling.addCrate(crate(Double(100 + i * 10))) }
    for _ in 0..<60 { tumbling.step() }
}
var strayJoint: Joint?
do {
    let jointed = try World(scene: SceneLoader.load(path: "Scenes/car.json"))
    try jointed.addJoint(.dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 50, stiffness: 10, damping: 1), a: jointed.crates[0],
                         b: jointed.crates[3])
    strayJoint = jointed.joints.first
    for _ in 0..<30 { jointed.step() }
    try jointed.remove(jointed.joints[1])
    try jointed.apply(.hold(force: Vec2(0, 500), at: nil, torque: 0, steps: 5), to: jointed.crates[3].id!)
    // Drags: one released, one replaced, one left held when its crate is removed, one when the world goes.
    for (index, crate) in jointed.crates.prefix(4).enumerated() {
        try crate.grab(at: crate.state.position + Vec2(3, 2), maxForce: index == 0 ? 1000 : nil)
    }
    let held = try jointed.saveStateIfPossible()
    try jointed.crates[0].drag(to: Vec2(10, 10))
    try jointed.crates[0].release()
    try jointed.crates[1].grab(at: Vec2(5, 5))
    if World.canSaveState { _ = try jointed.copy() }
    for _ in 0..<10 { jointed.step() }
    if let held { try jointed.restore(held) }
    let spare = try jointed.addCrate(crate(400))
    try spare.grab(at: Vec2(400, 400))
    try jointed.remove(spare)
    for _ in 0..<10 { jointed.step() }
}
strayJoint = nil
let second = try World(gravity: Vec2(0, -10))
for c in survivors { try second.add(c) }
second.step()
for c in survivors.prefix(10) { try second.remove(c) }
strayWall = nil
let scene = try SceneLoader.load(path: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Scenes/book.json")
let book = try World(scene: scene)
for _ in 0..<240 { book.step() }
print("leak-check: \(second.crates.count) crates in the second world, book hash \(book.stateHash)")

extension World {
    /// The world's state where saved states work (CrateDrop's Chipmunk), else nil.
    func saveStateIfPossible() throws -> WorldState? { World.canSaveState ? try saveState() : nil }
}
