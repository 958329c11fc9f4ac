import Physics
import SceneModel

/// What the driver advances: a world that steps by one fixed step and copies its state out.
/// `World` is the real one; tests use fakes whose steps cost a chosen amount of clock time.
public protocol Simulation: AnyObject {
    func step()
    func snapshot() -> WorldSnapshot
}

extension World: Simulation {}
