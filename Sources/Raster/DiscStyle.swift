#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
import SceneModel

/// How a round crate (a circle body) looks, worked out once per radius and colour: a disc of the
/// crate's wood with a darker rim, and a brace across it ending in a knot by the rim, so its
/// turning shows as a crate's brace does. Proportions follow `CrateStyle`'s, with the radius as
/// the half size.
struct DiscStyle {
    let radius: Double
    let rim: Double
    let braceHalfWidth: Double
    let frame: RGB
    let face: RGB
    let brace: RGB

    init(radius worldRadius: Double, scale: Double, palette: CratePalette) {
        radius = worldRadius * scale
        rim = max(0.75, radius * 0.2)
        braceHalfWidth = max(0.5, radius * 0.11)
        func rgb(_ color: (Double, Double, Double)) -> RGB {
            RGB(UInt8(truncatingIfNeeded: Int(color.0 + 0.5)), UInt8(truncatingIfNeeded: Int(color.1 + 0.5)),
                UInt8(truncatingIfNeeded: Int(color.2 + 0.5)))
        }
        frame = rgb(palette.frame)
        face = rgb(palette.planks[0])
        brace = rgb(palette.brace)
    }
}

extension Rasterizer {
    /// Draws a round crate centred at `center` (image pixels), turned by `angle` (radians,
    /// counter-clockwise in the world, so clockwise on the y-down image). Returns the pixels it
    /// touched: the rim's disc holds every later layer, so it alone marks the mask.
    static func drawDisc(_ image: inout RGBImage, center: Vec2, angle: Double, style: DiscStyle, pen: MaskPen = .none,
                         clip: PixelRect? = nil) -> PixelRect? {
        let drawn = drawSegment(&image, from: center, to: center, radius: style.radius, color: style.frame, pen: pen, clip: clip)
        let inner = style.radius - style.rim
        guard inner > 0.5 else { return drawn }
        drawSegment(&image, from: center, to: center, radius: inner, color: style.face, clip: clip)
        let reach = max(0, inner - style.braceHalfWidth)
        let direction = Vec2(cos(angle) * reach, -sin(angle) * reach)
        drawSegment(&image, from: center - direction, to: center + direction, radius: style.braceHalfWidth, color: style.brace, clip: clip)
        // The knot at one end of the brace tells a half turn from none.
        drawSegment(&image, from: center + direction, to: center + direction, radius: style.braceHalfWidth * 1.8, color: style.frame,
                    clip: clip)
        return drawn
    }
}
