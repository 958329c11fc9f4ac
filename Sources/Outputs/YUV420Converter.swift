#if canImport(Glibc)
import Glibc
#endif
import Raster

/// Converts RGB frames to planar YUV 4:2:0 (`yuv420p`), the input H.264 and VP9 encoders take, so
/// ffmpeg spends no time parsing images or converting colours.
///
/// BT.709 coefficients, limited ("TV") range: Y in 16...235, Cb and Cr in 16...240, which is what
/// players assume for HD video and what the video writer tags the stream with. Each chroma sample
/// is converted from the mean of its 2×2 block of pixels. Sides must be even.
///
/// Consecutive frames differ only where bodies moved, so the converter can convert only the
/// 32-pixel segments of each row pair that may differ from the previous frame, leaving the rest of
/// `output` (that frame's conversion) as it is. Frames drawn by one renderer also say where they
/// were drawn (`RGBImage.drawnRegions`): then only segments there are compared.
public struct YUV420Converter: Sendable {
    public let width: Int
    public let height: Int

    /// Bytes of one converted frame: a full-size Y plane and quarter-size Cb and Cr planes.
    public var frameBytes: Int { width * height * 3 / 2 }

    /// Pixels per segment compared with the previous frame (even).
    private static let segment = 32

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "yuv420p needs even, positive sides")
        self.width = width
        self.height = height
    }

    // Fixed point with 16 fractional bits: the BT.709 matrix scaled to limited range (219/255 for
    // luma, 224/255 for chroma), rounded.
    private static let yR = 11966, yG = 40254, yB = 4064
    private static let uR = -6596, uG = -22189, uB = 28784
    private static let vR = 28784, vG = -26145, vB = -2639

    /// Converts `image` into `output`.
    /// - Parameters:
    ///   - image: the frame, of the converter's size.
    ///   - output: the Y, Cb and Cr planes, one after another (resized to `frameBytes`).
    ///   - previous: the frame `output` already holds the conversion of, if any; then only what
    ///     changed since it is converted.
    ///   - changed: with `previous`: rectangles holding every pixel where the two frames may differ
    ///     (from `RGBImage.drawnRegions`); only segments they touch are compared. Nil: all are.
    public func convert(_ image: RGBImage, into output: inout [UInt8], previous: RGBImage? = nil, changed: [PixelRect]? = nil) {
        precondition(image.width == width && image.height == height, "frame size differs from the converter's")
        let width = self.width, height = self.height
        var reference = previous.flatMap { $0.width == width && $0.height == height ? $0.pixels : nil }
        if output.count != frameBytes {
            output = [UInt8](repeating: 0, count: frameBytes)
            reference = nil
        }
        let segmentsPerPair = (width + Self.segment - 1) / Self.segment
        let touched = changed.map { touchedSegments($0, segmentsPerPair: segmentsPerPair) }
        image.pixels.withUnsafeBufferPointer { rgb in
            output.withUnsafeMutableBufferPointer { yuv in
                let planes = Planes(luma: yuv.baseAddress!, width: width, height: height)
                guard let reference else {
                    for pairRow in 0..<(height / 2) { Self.convert(rgb.baseAddress!, planes, pairRow: pairRow, columns: 0..<width) }
                    return
                }
                reference.withUnsafeBufferPointer { old in
                    let rowBytes = width * 3
                    for pairRow in 0..<(height / 2) {
                        let offset = 2 * pairRow * rowBytes
                        for segment in 0..<segmentsPerPair where touched?[pairRow * segmentsPerPair + segment] ?? true {
                            let start = segment * Self.segment, end = min(start + Self.segment, width)
                            let bytes = (end - start) * 3
                            let at = offset + start * 3
                            if memcmp(rgb.baseAddress! + at, old.baseAddress! + at, bytes) != 0
                                || memcmp(rgb.baseAddress! + at + rowBytes, old.baseAddress! + at + rowBytes, bytes) != 0 {
                                Self.convert(rgb.baseAddress!, planes, pairRow: pairRow, columns: start..<end)
                            }
                        }
                    }
                }
            }
        }
    }

    /// One flag per segment of each row pair: whether one of `rects` touches it.
    private func touchedSegments(_ rects: [PixelRect], segmentsPerPair: Int) -> [Bool] {
        var touched = [Bool](repeating: false, count: segmentsPerPair * (height / 2))
        for rect in rects {
            let minX = max(0, rect.minX), maxX = min(width - 1, rect.maxX)
            let minY = max(0, rect.minY), maxY = min(height - 1, rect.maxY)
            guard minX <= maxX, minY <= maxY else { continue }
            for pairRow in (minY / 2)...(maxY / 2) {
                for segment in (minX / Self.segment)...(maxX / Self.segment) { touched[pairRow * segmentsPerPair + segment] = true }
            }
        }
        return touched
    }

    private struct Planes {
        let luma: UnsafeMutablePointer<UInt8>
        let cb: UnsafeMutablePointer<UInt8>
        let cr: UnsafeMutablePointer<UInt8>
        let width: Int

        init(luma: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
            self.luma = luma
            cb = luma + width * height
            cr = cb + (width / 2) * (height / 2)
            self.width = width
        }
    }

    /// Converts the 2×2 blocks of row pair `pairRow` in `columns` (even bounds).
    @inline(__always)
    private static func convert(_ rgb: UnsafePointer<UInt8>, _ planes: Planes, pairRow: Int, columns: Range<Int>) {
        let width = planes.width
        let top = rgb + 2 * pairRow * width * 3
        let bottom = top + width * 3
        let lumaTop = planes.luma + 2 * pairRow * width
        let lumaBottom = lumaTop + width
        let chromaRow = pairRow * (width / 2)
        for x in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
            var sumR = 0, sumG = 0, sumB = 0
            @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ luma: UnsafeMutablePointer<UInt8>, _ x: Int) {
                let r = Int(row[3 * x]), g = Int(row[3 * x + 1]), b = Int(row[3 * x + 2])
                sumR &+= r
                sumG &+= g
                sumB &+= b
                luma[x] = UInt8(truncatingIfNeeded: 16 + ((yR * r + yG * g + yB * b + 32768) >> 16))
            }
            pixel(top, lumaTop, x)
            pixel(top, lumaTop, x + 1)
            pixel(bottom, lumaBottom, x)
            pixel(bottom, lumaBottom, x + 1)
            // Sums of four pixels: divide by 4 inside the shift (+2 bits), rounding.
            let cb = 128 + ((uR * sumR + uG * sumG + uB * sumB + (1 << 17)) >> 18)
            let cr = 128 + ((vR * sumR + vG * sumG + vB * sumB + (1 << 17)) >> 18)
            planes.cb[chromaRow + x / 2] = UInt8(truncatingIfNeeded: cb)
            planes.cr[chromaRow + x / 2] = UInt8(truncatingIfNeeded: cr)
        }
    }
}
