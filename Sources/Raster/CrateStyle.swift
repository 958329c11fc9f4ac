import SceneModel

/// How a crate of one size looks, worked out once per size and reused every frame: border width,
/// plank height and brace geometry in image pixels, and the wood shades.
struct CrateStyle {
    let halfWidth: Double
    let halfHeight: Double
    let border: Double
    let plankHeight: Double
    let braceHalfWidth: Double
    /// Unit normal of the brace diagonal from (−w/2, −h/2) to (w/2, h/2), in crate coordinates.
    let braceNormalX: Double
    let braceNormalY: Double
    let frame: (Double, Double, Double)
    let plank0: (Double, Double, Double)
    let plank1: (Double, Double, Double)
    let plank2: (Double, Double, Double)
    let brace: (Double, Double, Double)
    /// The plank colours rounded to bytes, for pixels that need no blending.
    let plankBytes0: (UInt8, UInt8, UInt8)
    let plankBytes1: (UInt8, UInt8, UInt8)
    let plankBytes2: (UInt8, UInt8, UInt8)

    init(size: Vec2, scale: Double, palette: CratePalette) {
        halfWidth = size.x * scale / 2
        halfHeight = size.y * scale / 2
        let short = min(halfWidth, halfHeight)
        border = max(0.75, short * 0.2)
        plankHeight = max(1, (2 * halfHeight - 2 * border) / 3)
        braceHalfWidth = max(0.5, short * 0.11)
        let length = (halfWidth * halfWidth + halfHeight * halfHeight).squareRoot()
        braceNormalX = halfHeight / length
        braceNormalY = -halfWidth / length
        frame = palette.frame
        (plank0, plank1, plank2) = (palette.planks[0], palette.planks[1], palette.planks[2])
        brace = palette.brace
        func bytes(_ c: (Double, Double, Double)) -> (UInt8, UInt8, UInt8) {
            (UInt8(c.0 + 0.5), UInt8(c.1 + 0.5), UInt8(c.2 + 0.5))
        }
        (plankBytes0, plankBytes1, plankBytes2) = (bytes(plank0), bytes(plank1), bytes(plank2))
    }
}

/// Wood shades derived from the scene's crate colour.
struct CratePalette {
    let frame: (Double, Double, Double)
    let planks: [(Double, Double, Double)]
    let brace: (Double, Double, Double)

    init(base: RGB) {
        func shade(_ factor: Double) -> (Double, Double, Double) {
            (min(255, Double(base.r) * factor), min(255, Double(base.g) * factor), min(255, Double(base.b) * factor))
        }
        frame = shade(0.62)
        planks = [shade(1.0), shade(0.9), shade(1.08)]
        brace = shade(0.72)
    }
}
