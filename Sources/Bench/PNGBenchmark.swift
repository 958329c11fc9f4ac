import Driver
import Outputs
import Physics
import Raster
import SceneModel

/// Prices PNG encoding on one frame of a scene: the median time of `repetitions` encodes at a
/// level, and the file's size. `scripts/bench-outputs` compares it with Pillow on the same frame.
package enum PNGBenchmark {
    package struct Result: Sendable {
        package var milliseconds: Spread
        package var bytes: Int
        /// The frame encoded, to hand to another encoder.
        package var frame: RGBImage
    }

    /// Steps `scene` for `steps`, draws the state at `width`×`height` and encodes it.
    package static func run(scene: Scene, steps: Int, width: Int, height: Int, level: Int, repetitions: Int) throws -> Result {
        let world = try World(scene: scene)
        for _ in 0..<steps { world.step() }
        let renderer = FrameRenderer(world: scene.worldSize, walls: world.wallStates(), bodyShapes: world.bodyShapes, width: width, height: height, colors: scene.render)
        let frame = renderer.render(world.snapshot())
        let encoder = PNGEncoder(level: level)
        let clock = MonotonicStopwatch()
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<repetitions {
            let start = clock.nanoseconds()
            bytes = try encoder.encode(frame).count
            times.append(Double(clock.nanoseconds() - start) / 1e6)
        }
        return Result(milliseconds: Spread(times), bytes: bytes, frame: frame)
    }
}
