import FuzzSupport
import Physics
import SceneFile
import SceneModel

/// Fuzz target: scene file bytes through the decoder, validation and world build, then a few
/// steps. Whatever the bytes, the process must neither trap nor abort, and a scene the loader
/// accepts must build (Physics refusing it would mean validation missed something).
@_cdecl("LLVMFuzzerTestOneInput")
public func sceneFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let scene = try? SceneLoader.parse(bytes, file: "fuzz.json") else { return 0 }
    let world: World
    do {
        world = try World(scene: scene)
    } catch {
        fatalError("the loader accepted a scene that Physics refuses: \(error)")
    }
    for _ in 0..<3 { world.step() }
    return 0
}

/// libFuzzer's driver under scripts/fuzz; a corpus replay in a plain build.
@main
struct SceneFuzzerMain {
    static func main() { FuzzReplay.run(sceneFuzzerTestOneInput) }
}
