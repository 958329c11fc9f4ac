/// A picture's pixels as terrain sees them: how solid each one is, 0 (empty) to 255 (solid),
/// row by row from the bottom row up (y points up, as in the world), left to right.
public struct TerrainSamples: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width × height` values, row 0 the picture's bottom row.
    public var solidity: [UInt8]

    public init(width: Int, height: Int, solidity: [UInt8]) {
        precondition(width > 0 && height > 0 && solidity.count == width * height, "terrain samples must fill width × height")
        self.width = width
        self.height = height
        self.solidity = solidity
    }
}

/// Where a scene's image walls came from: the `walls` entry, the picture's bytes (by digest) and
/// the segment walls it became, which sit in `Scene.walls` at the entry's place in file order.
public struct TerrainSource: Sendable, Equatable {
    /// The entry's index in the scene file's `walls`.
    public var wallIndex: Int
    /// FNV-1a 64 of the PNG file's bytes: a changed picture is a changed world (`World.fingerprint`).
    public var digest: UInt64
    /// How many segment walls the picture became.
    public var wallCount: Int

    public init(wallIndex: Int, digest: UInt64, wallCount: Int) {
        self.wallIndex = wallIndex
        self.digest = digest
        self.wallCount = wallCount
    }
}

/// What a terrain picture may be and become (docs/scenes.md, "Terrain from a picture").
public enum TerrainLimits {
    /// PNG files larger than this are refused before decoding.
    public static let maxFileSize = 16 << 20
    /// Widest and tallest picture, in pixels.
    public static let maxSide = 4096
    /// Most pixels in one picture: 2048 × 2048 traces in well under a second.
    public static let maxPixels = 2048 * 2048
    /// Most contour segments the marching may emit before simplification: Chipmunk joins each
    /// into a polyline by a search over the polylines so far, so the work grows as segments
    /// times polylines, and a picture of noise must be refused rather than traced for minutes.
    public static let maxContourSegments = 500_000
    /// Most separate polylines while joining: each closed outline becomes at least two walls, so
    /// more than this could never fit in the world's walls (`Limits.walls`).
    public static let maxOutlines = 5_000
    /// `threshold`: the solidity (0...1) the outline follows; 0 and 1 would trace nothing.
    public static let threshold = 0.0...1.0
    /// `scale`: world pixels per picture pixel.
    public static let scale = 0.001...1000.0
    /// `tolerance`: how far, in picture pixels, the simplified outline may stray from the traced one.
    public static let tolerance = 0.0...64.0
    /// The default `tolerance`: half a pixel keeps the picture's shape and drops the staircase.
    public static let defaultTolerance = 0.5
    /// The default `threshold`.
    public static let defaultThreshold = 0.5
}

/// How a picture's pixels are read as solidity (`channel` in a terrain wall).
public enum TerrainChannel: String, Sendable, CaseIterable {
    /// Opaque is solid: A.
    case alpha
    /// Dark is solid: 255 − Y, where Y = (299 R + 587 G + 114 B + 500) / 1000 is laid over white
    /// by its alpha, (Y × A + 255 × (255 − A) + 127) / 255, all in whole numbers: a transparent
    /// pixel is empty whatever its colour.
    case luminance

    /// The solidity of one RGBA pixel, in whole numbers (the same on every CPU).
    public func solidity(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt8 {
        switch self {
        case .alpha: return a
        case .luminance:
            let y = (299 * Int(r) + 587 * Int(g) + 114 * Int(b) + 500) / 1000
            let overWhite = (y * Int(a) + 255 * (255 - Int(a)) + 127) / 255
            return UInt8(255 - overWhite)
        }
    }
}
