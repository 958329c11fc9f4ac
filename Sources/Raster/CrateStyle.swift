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
    /// RGB bytes of the pixels fully inside the crate whose brace and frame weights are each 0 or
    /// 1, at `solidIndex`: worked out as `Rasterizer.shade` works out any pixel, so that using them
    /// changes no pixel.
    let solidColors: [UInt8]
    /// The bytes `Rasterizer.shade` gives every fully covered pixel with a frame weight of 1,
    /// whatever plank and brace lie under it; nil when the palette cannot promise one answer.
    let frameBytes: (UInt8, UInt8, UInt8)?
    /// The bytes of every fully covered pixel off the frame with a brace weight of 1, whatever the
    /// plank; nil when the planks' entries in `solidColors` differ.
    let braceBytes: (UInt8, UInt8, UInt8)?

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
        var solid = [UInt8](repeating: 0, count: 3 * 3 * 4)
        for (plank, base) in [palette.planks[0], palette.planks[1], palette.planks[2]].enumerated() {
            for braced in [false, true] {
                for framed in [false, true] {
                    var color = base
                    if braced { color = Rasterizer.mix(color, palette.brace, 1) }
                    if framed { color = Rasterizer.mix(color, palette.frame, 1) }
                    let at = Self.solidIndex(plank: plank, brace: braced, frame: framed)
                    solid[at] = UInt8(truncatingIfNeeded: Int(color.0 + 0.5))
                    solid[at + 1] = UInt8(truncatingIfNeeded: Int(color.1 + 0.5))
                    solid[at + 2] = UInt8(truncatingIfNeeded: Int(color.2 + 0.5))
                }
            }
        }
        solidColors = solid
        func entry(_ plank: Int, brace: Bool, frame: Bool) -> (UInt8, UInt8, UInt8) {
            let at = Self.solidIndex(plank: plank, brace: brace, frame: frame)
            return (solid[at], solid[at + 1], solid[at + 2])
        }
        let framed = (0..<3).flatMap { [entry($0, brace: false, frame: true), entry($0, brace: true, frame: true)] }
        // Under the frame, `shade` mixes a colour x (a plank's, perhaps partly braced) with weight 1
        // into the frame's F: x + (F − x)·1 lies within 1e-13 of F, which rounds to the same byte
        // as F unless F + ½ is that close to a whole number.
        let clearOfRounding = [frame.0, frame.1, frame.2].allSatisfy { channel in
            let half = channel + 0.5
            return half - half.rounded(.down) > 1e-9 && half.rounded(.up) - half > 1e-9
        }
        frameBytes = clearOfRounding && framed.allSatisfy({ $0 == framed[0] }) ? framed[0] : nil
        let braced = (0..<3).map { entry($0, brace: true, frame: false) }
        braceBytes = braced.allSatisfy({ $0 == braced[0] }) ? braced[0] : nil
    }

    /// Where a solid colour's bytes start in `solidColors`.
    @inline(__always)
    static func solidIndex(plank: Int, brace: Bool, frame: Bool) -> Int {
        (plank * 4 + (brace ? 2 : 0) + (frame ? 1 : 0)) * 3
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

/// A crate style's numbers without its colour table: a plain value the rasterizer's pixel loop can
/// keep in registers.
struct CrateGeometry {
    let halfWidth: Double
    let halfHeight: Double
    let border: Double
    let plankHeight: Double
    let braceHalfWidth: Double
    let braceNormalX: Double
    let braceNormalY: Double
    let frame: (Double, Double, Double)
    let plank0: (Double, Double, Double)
    let plank1: (Double, Double, Double)
    let plank2: (Double, Double, Double)
    let brace: (Double, Double, Double)

    @inline(__always)
    init(_ style: CrateStyle) {
        (halfWidth, halfHeight, border, plankHeight) = (style.halfWidth, style.halfHeight, style.border, style.plankHeight)
        (braceHalfWidth, braceNormalX, braceNormalY) = (style.braceHalfWidth, style.braceNormalX, style.braceNormalY)
        (frame, plank0, plank1, plank2, brace) = (style.frame, style.plank0, style.plank1, style.plank2, style.brace)
    }
}
