import Raster

/// Converts RGB frames to planar YUV 4:2:0 (`yuv420p`), the input H.264 and VP9 encoders take, so
/// ffmpeg spends no time parsing images or converting colours.
///
/// BT.709 coefficients, limited ("TV") range: Y in 16...235, Cb and Cr in 16...240, which is what
/// players assume for HD video and what the video writer tags the stream with. Each chroma sample
/// is converted from the mean of its 2×2 block of pixels. Sides must be even.
public struct YUV420Converter: Sendable {
    public let width: Int
    public let height: Int

    /// Bytes of one converted frame: a full-size Y plane and quarter-size Cb and Cr planes.
    public var frameBytes: Int { width * height * 3 / 2 }

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

    /// Whether the 2×2 block whose top-left pixel is `top[0...2]` is one colour.
    @inline(__always)
    private static func sameColour(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>) -> Bool {
        top[0] == top[3] && top[1] == top[4] && top[2] == top[5]
            && bottom[0] == top[0] && bottom[1] == top[1] && bottom[2] == top[2]
            && bottom[3] == top[0] && bottom[4] == top[1] && bottom[5] == top[2]
    }

    /// Converts `image` into `output` (resized to `frameBytes`).
    public func convert(_ image: RGBImage, into output: inout [UInt8]) {
        precondition(image.width == width && image.height == height, "frame size differs from the converter's")
        if output.count != frameBytes { output = [UInt8](repeating: 0, count: frameBytes) }
        let width = self.width, height = self.height
        image.pixels.withUnsafeBufferPointer { rgb in
            output.withUnsafeMutableBufferPointer { yuv in
                let lumaPlane = yuv.baseAddress!
                let cbPlane = lumaPlane + width * height
                let crPlane = cbPlane + (width / 2) * (height / 2)
                for pairRow in 0..<(height / 2) {
                    let top = rgb.baseAddress! + 2 * pairRow * width * 3
                    let bottom = top + width * 3
                    let lumaTop = lumaPlane + 2 * pairRow * width
                    let lumaBottom = lumaTop + width
                    let chromaRow = pairRow * (width / 2)
                    // Frames are mostly flat colour: a 2×2 block equal to the previous one
                    // (all four pixels one colour, the same colour as before) reuses its result.
                    var lastColour = -1, lastLuma: UInt8 = 0, lastCb: UInt8 = 0, lastCr: UInt8 = 0
                    for pairColumn in 0..<(width / 2) {
                        let x = 2 * pairColumn
                        let colour = Int(top[3 * x]) << 16 | Int(top[3 * x + 1]) << 8 | Int(top[3 * x + 2])
                        if colour == lastColour, Self.sameColour(top + 3 * x, bottom + 3 * x) {
                            lumaTop[x] = lastLuma
                            lumaTop[x + 1] = lastLuma
                            lumaBottom[x] = lastLuma
                            lumaBottom[x + 1] = lastLuma
                            cbPlane[chromaRow + pairColumn] = lastCb
                            crPlane[chromaRow + pairColumn] = lastCr
                            continue
                        }
                        var sumR = 0, sumG = 0, sumB = 0
                        @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ luma: UnsafeMutablePointer<UInt8>, _ x: Int) {
                            let r = Int(row[3 * x]), g = Int(row[3 * x + 1]), b = Int(row[3 * x + 2])
                            sumR &+= r
                            sumG &+= g
                            sumB &+= b
                            luma[x] = UInt8(truncatingIfNeeded: 16 + ((Self.yR * r + Self.yG * g + Self.yB * b + 32768) >> 16))
                        }
                        pixel(top, lumaTop, x)
                        pixel(top, lumaTop, x + 1)
                        pixel(bottom, lumaBottom, x)
                        pixel(bottom, lumaBottom, x + 1)
                        // Sums of four pixels: divide by 4 inside the shift (+2 bits), rounding.
                        let cb = 128 + ((Self.uR * sumR + Self.uG * sumG + Self.uB * sumB + (1 << 17)) >> 18)
                        let cr = 128 + ((Self.vR * sumR + Self.vG * sumG + Self.vB * sumB + (1 << 17)) >> 18)
                        cbPlane[chromaRow + pairColumn] = UInt8(truncatingIfNeeded: cb)
                        crPlane[chromaRow + pairColumn] = UInt8(truncatingIfNeeded: cr)
                        if Self.sameColour(top + 3 * x, bottom + 3 * x) {
                            (lastColour, lastLuma) = (colour, lumaTop[x])
                            (lastCb, lastCr) = (cbPlane[chromaRow + pairColumn], crPlane[chromaRow + pairColumn])
                        } else {
                            lastColour = -1
                        }
                    }
                }
            }
        }
    }
}
