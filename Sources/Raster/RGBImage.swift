import SceneModel

/// An 8-bit RGB image, rows top to bottom, 3 bytes a pixel: exactly the body of a binary PPM.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// An image of one colour.
    public init(width: Int, height: Int, fill: RGB) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.width = width
        self.height = height
        var row = [UInt8]()
        row.reserveCapacity(width * 3)
        for _ in 0..<width { row.append(contentsOf: [fill.r, fill.g, fill.b]) }
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for _ in 0..<height { pixels.append(contentsOf: row) }
        self.pixels = pixels
    }

    /// The binary PPM (P6, maxval 255) header for this size.
    public var ppmHeader: [UInt8] { Array("P6\n\(width) \(height)\n255\n".utf8) }

    /// The whole PPM file: header then pixels.
    public func ppm() -> [UInt8] { ppmHeader + pixels }
}
