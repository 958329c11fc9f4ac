import CoreABI
import Physics
import Raster
import SceneModel
import TestSupport
import Testing

/// The world as a picture (Python's `World.render`): the CLI's renderer with the scene's look, its
/// walls, joints and crates' colours. In `CoreABITests`' suite: the ABI's handle table and last
/// result are one thread's. (Tests/Python/wheel_test.py compares the pictures with `cratedrop
/// run`'s frames, pixel for pixel.)
extension CoreABITests {
    static func render(_ handle: Int32, width: Int32, height: Int32, capacity: Int32? = nil) -> (status: Int32, pixels: [UInt8]) {
        var pixels = [UInt8](repeating: 0, count: Int(capacity ?? width * height * 3))
        let status = pixels.withUnsafeMutableBufferPointer { cratedropWorldRender(handle, width, height, $0.baseAddress, Int32($0.count)) }
        return (status, pixels)
    }

    /// Each picture is what a renderer set up as the CLI's frame stage sets one up draws whole for
    /// the same step: the first, and a later one drawn over it by its changes.
    @Test func picturesAreTheRenderersWholeFrames() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        for steps in [120, 240] {
            #expect(cratedropWorldStep(handle, Int32(steps - world.stepCount)) == 0)
            while world.stepCount < steps { world.step() }
            let picture = Self.render(handle, width: 200, height: 150)
            #expect(picture.status == 200 * 150 * 3)
            let reference = FrameRenderer(world: scene.worldSize, walls: world.wallStates(), bodyShapes: world.bodyShapes, width: 200, height: 150,
                                          colors: scene.render, crateColors: scene.crateColors(in: world), joints: world.jointLinks,
                                          drawsChanges: false)
            #expect(picture.pixels == reference.render(world.snapshot()).pixels, "step \(steps)")
        }
    }

    /// The scene's frame size is the default, as for the CLI.
    @Test func imageSizeIsTheScenesFrameSize() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        var size: [Int32] = [0, 0]
        #expect(size.withUnsafeMutableBufferPointer { cratedropWorldImageSize(handle, $0.baseAddress) } == 0)
        let render = try Repository.scene("book").render
        #expect(size == [Int32(render.imageWidth), Int32(render.imageHeight)])
        #expect(cratedropWorldImageSize(handle, nil) == -64)
    }

    /// A size out of `--size`'s range or too little room is refused (64), saying why; nothing is written.
    @Test func badSizesAndShortBuffersAreRefused() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        let zero = Self.render(handle, width: 0, height: 10, capacity: 30)
        #expect(zero.status == -64 && Self.result() == "size must be WIDTHxHEIGHT with each side in 1...16384, got 0x10")
        #expect(Self.render(handle, width: 16_385, height: 1, capacity: 3).status == -64)
        let short = Self.render(handle, width: 10, height: 10, capacity: 299)
        #expect(short.status == -64 && Self.result() == "a 10x10 picture needs 300 bytes of room, got 299")
        #expect(short.pixels.allSatisfy { $0 == 0 })
        #expect(cratedropWorldRender(handle, 10, 10, nil, 300) == -64)
        #expect(cratedropWorldRender(handle + 100, 10, 10, nil, 300) == -64)
    }
}
