import SceneModel

/// What the driver advances: a world that steps by one fixed step and copies its state out.
/// The physics `World` is the real one (the Session module makes it one, and wraps it with gravity
/// streams and records); tests use fakes whose steps cost a chosen amount of clock time. The
/// driver knows only this protocol and values, nothing of Chipmunk.
public protocol Simulation: AnyObject {
    /// Readies the next step (e.g. applies input due at it). Returns false if the simulation
    /// cannot go on (its input failed); the driver then stops stepping for good.
    func prepareStep() -> Bool
    func step()
    func snapshot() -> WorldSnapshot
}

extension Simulation {
    public func prepareStep() -> Bool { true }
}
