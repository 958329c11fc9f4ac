import FuzzSupport
import Physics
import SceneModel
import Script

/// A small world the parsed lines are applied to: a floor, a dynamic box (id 1) and a kinematic
/// paddle (id 2), so bodies' inputs reach the world's checks and Chipmunk as a run's would.
private func makeWorld() -> World? {
    guard let world = try? World(gravity: Vec2(0, -1000)) else { return nil }
    _ = try? world.addWall(WallSpec(from: Vec2(-500, 0), to: Vec2(500, 0), radius: 1))
    _ = try? world.addCrate(CrateSpec(center: Vec2(0, 20), size: Vec2(20, 20), mass: 1))
    _ = try? world.addCrate(.kinematic(center: Vec2(100, 20), shape: .box(size: Vec2(40, 5))))
    return world
}

/// Fuzz target: bytes as an input stream (lines through the line splitter and the parser, as
/// `--inputs` reads them), each command applied to a small world and a step taken (at most 64),
/// and as a run record. Nothing may trap (Debian's debug Chipmunk aborts on a bad value); every
/// line is a command, a record line or an error naming its line.
@_cdecl("LLVMFuzzerTestOneInput")
public func gravityFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var splitter = LineSplitter()
    var parser = GravityLineParser(source: "fuzz", stepRate: 120, gravityMagnitude: 1000, axes: .portrait)
    let world = makeWorld()
    for piece in splitter.feed(bytes[...]) + splitter.finish() {
        guard case let .line(number, line) = piece else { continue }
        switch parser.read(line, line: number) {
        case let .failure(error):
            if !error.description.hasPrefix("fuzz:\(number): ") { fatalError("an input error that does not name its line: \(error)") }
        case let .success(command?):
            guard let world, world.stepCount < 64 else { continue }
            switch command.action {
            case let .gravity(gravity): _ = try? world.setGravity(gravity)
            case let .body(id, input): _ = try? world.apply(input, to: id)
            case let .change(change): _ = try? world.apply(change)
            }
            world.step()
        case .success(nil):
            continue
        }
    }
    _ = try? RunRecord.parse(bytes, source: "fuzz")
    return 0
}

/// libFuzzer's driver under scripts/fuzz; a corpus replay in a plain build.
@main
struct GravityFuzzerMain {
    static func main() { FuzzReplay.run(gravityFuzzerTestOneInput) }
}
