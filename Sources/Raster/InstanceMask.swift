import SceneModel

/// A frame's instance mask: one 16-bit id per pixel, rows top to bottom, drawn in the same pass
/// as the frame's colours (`FrameRenderer` with `drawsMasks`). A pixel holds the id of the last
/// thing drawn whose shape covers the pixel's centre: where the frame shows at least half of
/// that thing's colour. Joints and debug overlays are not in it (docs/outputs.md, "Masks").
///
/// Ids: 0 is the background; a body's id is its `BodyID` (1 ... `maxBodyID`); a wall's is
/// `firstWallID` + its index (the scene's walls in order, as contact events number them, then
/// the tumblers' moving walls).
public struct InstanceMask: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public internal(set) var ids: [UInt16]

    public static let background: UInt16 = 0
    /// The highest body id a mask holds: masks of worlds with higher ids are refused when the
    /// run is set up (`refusal(highestBodyID:)`).
    public static let maxBodyID: UInt64 = 0xEFFF
    /// Wall i's id is `firstWallID + i`.
    public static let firstWallID: UInt16 = 0xF000
    /// How many walls a mask tells apart; walls past these share the last id.
    public static let wallIDCount = Int(UInt16.max - firstWallID) + 1

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        ids = [UInt16](repeating: Self.background, count: width * height)
    }

    /// Why a world's bodies cannot be told apart in a mask, if they cannot: an id past `maxBodyID`.
    public static func refusal(highestBodyID: BodyID?) -> String? {
        guard let highestBodyID, highestBodyID.rawValue > maxBodyID else { return nil }
        return "body \(highestBodyID) is past the highest id a 16-bit mask holds for a body (\(maxBodyID); walls take \(firstWallID) and up)"
    }

    /// Why a world's walls cannot be told apart in a mask, if they cannot: more than `wallIDCount`
    /// (the scene's and a tumbler's), where later walls would all share the last id.
    public static func refusal(wallCount: Int) -> String? {
        guard wallCount > wallIDCount else { return nil }
        return "the world has \(wallCount) walls; a 16-bit mask tells \(wallIDCount) apart (ids \(firstWallID) and up)"
    }

    /// The mask id of body `id`, nil past `maxBodyID`.
    static func id(of body: BodyID) -> UInt16? {
        body.rawValue <= maxBodyID ? UInt16(body.rawValue) : nil
    }

    /// The mask id of wall `index`.
    static func wallID(_ index: Int) -> UInt16 {
        firstWallID + UInt16(min(index, wallIDCount - 1))
    }
}

/// Where a drawing call marks the mask: the pixels whose centre its shape covers get `id`. The
/// default marks nothing (a frame without a mask, or a layer drawn over a shape already marked).
struct MaskPen {
    let pixels: UnsafeMutablePointer<UInt16>?
    let id: UInt16

    static var none: MaskPen { MaskPen(pixels: nil, id: 0) }

    /// Marks pixel `index` (y · width + x).
    @inline(__always)
    func mark(_ index: Int) { pixels?[index] = id }

    /// Marks pixels `first ... last` of a row starting at index `row`.
    @inline(__always)
    func mark(row: Int, _ first: Int, _ last: Int) {
        guard let pixels, first <= last else { return }
        (pixels + row + first).update(repeating: id, count: last - first + 1)
    }
}
