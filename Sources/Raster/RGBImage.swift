import SceneModel

/// An 8-bit RGB image, rows top to bottom, 3 bytes a pixel: exactly the body of a binary PPM.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Changing them drops `drawnRegions`: what the renderer knew no longer holds.
    public var pixels: [UInt8] {
        didSet { drawnRegions = nil }
    }
    /// Set by the renderer that drew the image: where it drew over its background. Pixels outside
    /// these rectangles are the background's. Nil for any other image, and once pixels change.
    public internal(set) var drawnRegions: DrawnRegions?
    /// The instance mask drawn with the pixels, when the renderer draws masks; nil otherwise.
    public internal(set) var mask: InstanceMask?

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

    /// Every pixel of the image.
    var bounds: PixelRect { PixelRect(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1) }

    /// The binary PPM (P6, maxval 255) header for this size.
    public var ppmHeader: [UInt8] { Array("P6\n\(width) \(height)\n255\n".utf8) }

    /// The whole PPM file: header then pixels.
    public func ppm() -> [UInt8] { ppmHeader + pixels }

    /// Images are equal when their pixels are; how they were drawn (and their masks) does not matter.
    public static func == (a: RGBImage, b: RGBImage) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels == b.pixels
    }
}

/// Where a rendered frame differs from the background it was drawn on (a renderer's static layer:
/// background colour, grid, fixed walls). Two frames drawn on the same background can differ only
/// inside the union of their regions, which spares a video writer comparing whole frames.
public struct DrawnRegions: Sendable, Equatable {
    /// Which background: the same number for every frame of one renderer, a new one per renderer.
    public let background: UInt64
    /// Rectangles inside the image covering every pixel drawn over the background (they may overlap).
    public let rects: [PixelRect]
    /// What was drawn, item by item, when that is all the frame holds over its background (no
    /// overlays): what `changes(since:)` compares.
    let items: [DrawnItem]?

    init(background: UInt64, rects: [PixelRect], items: [DrawnItem]? = nil) {
        self.background = background
        self.rects = rects
        self.items = items
    }
}
