import SceneModel

/// A 3×5 pixel font for the digits, enough to label bodies with their ids.
enum DigitFont {
    static let width = 3, height = 5

    /// Rows top to bottom, 3 bits each, high bit on the left.
    private static let glyphs: [[UInt8]] = [
        [0b111, 0b101, 0b101, 0b101, 0b111], [0b010, 0b110, 0b010, 0b010, 0b111], [0b111, 0b001, 0b111, 0b100, 0b111],
        [0b111, 0b001, 0b111, 0b001, 0b111], [0b101, 0b101, 0b111, 0b001, 0b001], [0b111, 0b100, 0b111, 0b001, 0b111],
        [0b111, 0b100, 0b111, 0b101, 0b111], [0b111, 0b001, 0b010, 0b010, 0b010], [0b111, 0b101, 0b111, 0b101, 0b111],
        [0b111, 0b101, 0b111, 0b001, 0b111],
    ]

    /// Draws `text` (digits; others are skipped) centred on image point (x, y), each font pixel
    /// `scale` image pixels wide, clipped to the image.
    /// - Returns: a rectangle holding every pixel drawn (nil if none).
    @discardableResult
    static func draw(_ image: inout RGBImage, _ text: String, centerX x: Double, centerY y: Double, scale: Int, color: RGB) -> PixelRect? {
        let digits = text.compactMap { $0.wholeNumberValue }
        let advance = (width + 1) * scale
        let textWidth = digits.count * advance - scale
        let left = Rasterizer.pixel((x - Double(textWidth) / 2).rounded())
        let top = Rasterizer.pixel((y - Double(height * scale) / 2).rounded())
        let imageWidth = image.width, imageHeight = image.height
        guard !digits.isEmpty else { return nil }
        let drawn = PixelRect(minX: max(0, left), minY: max(0, top), maxX: min(imageWidth - 1, left + textWidth - 1),
                              maxY: min(imageHeight - 1, top + height * scale - 1))
        guard drawn.minX <= drawn.maxX, drawn.minY <= drawn.maxY else { return nil }
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            for (index, digit) in digits.enumerated() {
                for row in 0..<height {
                    let bits = glyphs[digit][row]
                    for column in 0..<width where bits & (0b100 >> column) != 0 {
                        for dy in 0..<scale {
                            for dx in 0..<scale {
                                let px = left + index * advance + column * scale + dx, py = top + row * scale + dy
                                guard px >= 0, py >= 0, px < imageWidth, py < imageHeight else { continue }
                                let at = (py * imageWidth + px) * 3
                                (buffer[at], buffer[at + 1], buffer[at + 2]) = (color.r, color.g, color.b)
                            }
                        }
                    }
                }
            }
        }
        return drawn
    }
}
