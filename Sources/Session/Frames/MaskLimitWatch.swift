import Raster
import SceneModel

/// Tells, once, when a world that changes outgrows what its masks tell apart: a body added with
/// an id past `InstanceMask.maxBodyID` (left out of the masks), or walls past
/// `InstanceMask.wallIDCount` (sharing the last id). A run's start refuses such a world; this
/// covers the bodies and walls added while it runs, which the run keeps (frames, traces and the
/// rest stay whole).
struct MaskLimitWatch {
    let masks: String
    let onWarning: (String) -> Void
    /// The parts last checked (their version), and what has been told.
    private var checkedVersion: Int?
    private var toldBodies = false
    private var toldWalls = false

    init(masks: String, onWarning: @escaping (String) -> Void) {
        self.masks = masks
        self.onWarning = onWarning
    }

    mutating func check(_ snapshot: WorldSnapshot) {
        guard let parts = snapshot.parts, parts.version != checkedVersion else { return }
        checkedVersion = parts.version
        if !toldBodies, let refusal = InstanceMask.refusal(highestBodyID: parts.bodyShapes.highestID) {
            toldBodies = true
            onWarning("\(masks): at step \(snapshot.step), \(refusal): such bodies are left out of the masks from here on")
        }
        if !toldWalls, let refusal = InstanceMask.refusal(wallCount: parts.walls.count + snapshot.movingWalls.count) {
            toldWalls = true
            onWarning("\(masks): at step \(snapshot.step), \(refusal): the later walls share the last id in the masks from here on")
        }
    }
}
