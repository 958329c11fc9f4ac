import Physics
import Raster
import SceneModel

/// A world drawn as the CLI draws its frames (`cratedrop run SCENE --out FRAME`): the same
/// renderer (`FrameRenderer`), the scene's look and colours, its walls, joints and crates' own
/// colours, no overlays. Kept between calls: the static layer is drawn once for a size, and each
/// picture after the first is drawn again only where the bodies moved (the result is the whole
/// drawing's, pixel for pixel).
struct RunPicture {
    let width: Int
    let height: Int
    private let renderer: FrameRenderer
    private var image: RGBImage

    /// Set up for `width` × `height` pixels (sides already checked), as the CLI's frame stage sets
    /// its renderer up at a run's start.
    init(world: World, scene: Scene, width: Int, height: Int) {
        self.width = width
        self.height = height
        renderer = FrameRenderer(world: scene.worldSize, walls: world.wallStates(), bodyShapes: world.bodyShapes, width: width,
                                 height: height, colors: scene.render, crateColors: scene.crateColors(in: world), joints: world.jointLinks)
        image = RGBImage(width: width, height: height, fill: scene.render.background)
    }

    /// Draws `snapshot` and copies its rows of RGB bytes (`width * 3` a row, top row first) to `out`.
    mutating func draw(_ snapshot: WorldSnapshot, into out: UnsafeMutablePointer<UInt8>) {
        renderer.render(snapshot, into: &image)
        image.pixels.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
    }
}
