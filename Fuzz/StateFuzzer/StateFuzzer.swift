import FuzzSupport
import Physics
import SceneFile
import SceneModel
import Script

/// Fuzz target: saved-state bytes through the file parser, the embedded scene, a world built from
/// it, a restore, 300 steps and the world's teardown. The checksum is made right first, so
/// mutations reach the fields behind it (a real file's checksum would refuse nearly all of them at
/// once). Whatever the bytes, the process must neither trap nor abort nor hang (scripts/fuzz gives
/// each input a time limit), and a refused restore must leave the world exactly as it was. Run on
/// the portable backend (scripts/fuzz), where restores reach Chipmunk, built under the sanitizers.
/// As many steps as the audit ran its crafted states for.
let stepsAfterRestore = 300

@_cdecl("LLVMFuzzerTestOneInput")
public func stateFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if bytes.count >= 16, SavedStateFile.startsWithMagic(bytes) {
        var hasher = FNV1a64()
        for byte in bytes.dropLast(8) { hasher.combine(byte: byte) }
        withUnsafeBytes(of: hasher.value.littleEndian) { bytes.replaceSubrange((bytes.count - 8)..., with: $0) }
    }
    guard let file = try? SavedStateFile.parse(bytes),
          let scene = try? SceneLoader.parse(file.sceneText, file: "fuzz.json"),
          scene.allCrates().count <= 2000
    else { return 0 }
    let world: World
    do {
        world = try World(scene: scene)
    } catch {
        fatalError("the loader accepted a scene that Physics refuses: \(error)")
    }
    for _ in 0..<2 { world.step() }
    let before = try? world.saveState()
    do {
        try world.restore(file.state)
    } catch {
        if let before, (try? world.saveState()) != before { fatalError("a refused restore changed the world: \(error)") }
        return 0
    }
    // A restored state's flaws show in the steps after it and in the teardown (audit round 4:
    // pairs inserted twice made a cycle that the world's teardown walked for ever).
    for _ in 0..<stepsAfterRestore { world.step() }
    return 0
}

/// libFuzzer's driver under scripts/fuzz; a corpus replay in a plain build.
@main
struct StateFuzzerMain {
    static func main() { FuzzReplay.run(stateFuzzerTestOneInput) }
}
