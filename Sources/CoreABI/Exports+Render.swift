import Physics
import Raster
import SceneModel

// The world as a picture, drawn by the CLI's renderer (`RunPicture`): what Python's
// `World.render` and Gymnasium's `render_mode="rgb_array"` give.

/// The size of the scene's frames when none is given (`render.size`, else its default): width
/// and height into `out[0]`, `out[1]`.
@_cdecl("cratedrop_world_image_size")
public func cratedropWorldImageSize(_ handle: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    guard let out else { return LastResult.fail(CoreError(code: .usage, message: "no buffer for the size")) }
    let render = run.page.scene.render
    out[0] = Int32(clamping: render.imageWidth)
    out[1] = Int32(clamping: render.imageHeight)
    return 0
}

/// Draws the world now, `width` × `height` pixels (each side in `Limits.imageSide`, as the CLI's
/// `--size`), into `out`: `capacity` bytes of room for `height` rows of `width` RGB pixels, top row
/// first. Returns the bytes written; -64 for a size out of range, no buffer or too little room.
@_cdecl("cratedrop_world_render")
public func cratedropWorldRender(_ handle: Int32, _ width: Int32, _ height: Int32, _ out: UnsafeMutablePointer<UInt8>?,
                                 _ capacity: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    let sides = Limits.imageSide
    guard sides.contains(Int(width)), sides.contains(Int(height)) else {
        return LastResult.fail(CoreError(code: .usage, message: "size must be WIDTHxHEIGHT with each side in \(sides.lowerBound)...\(sides.upperBound), got \(width)x\(height)"))
    }
    // At most 16,384² × 3 = 805,306,368 bytes: within Int32 on every platform.
    let needed = Int(width) * Int(height) * 3
    guard let out else { return LastResult.fail(CoreError(code: .usage, message: "no buffer for the picture")) }
    guard Int(capacity) >= needed else {
        return LastResult.fail(CoreError(code: .usage, message: "a \(width)x\(height) picture needs \(needed) bytes of room, got \(capacity)"))
    }
    if run.picture?.width != Int(width) || run.picture?.height != Int(height) {
        run.picture = RunPicture(world: run.world, scene: run.page.scene, width: Int(width), height: Int(height))
    }
    run.picture!.draw(run.world.snapshot(), into: out)
    return Int32(clamping: needed)
}
