/// A rectangle of whole pixels, bounds included: what a drawing call touched.
public struct PixelRect: Sendable, Equatable {
    public var minX: Int
    public var minY: Int
    public var maxX: Int
    public var maxY: Int

    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        PixelRect(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }
}

extension PixelRect {
    /// The pixels in both, or nil if they share none.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let rect = PixelRect(minX: max(minX, other.minX), minY: max(minY, other.minY), maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
        return rect.minX <= rect.maxX && rect.minY <= rect.maxY ? rect : nil
    }

    /// How many pixels it holds.
    public var area: Int { (maxX - minX + 1) * (maxY - minY + 1) }

    /// Whether the two share a pixel.
    @inline(__always)
    public func intersects(_ other: PixelRect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }
}
