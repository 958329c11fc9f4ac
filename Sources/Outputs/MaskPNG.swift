#if canImport(Glibc)
import Glibc
#endif
import Raster

/// Instance masks as 16-bit greyscale PNG (IHDR, one IDAT, IEND), its zlib stream written by
/// `RunDeflater`: a mask is runs of one id along each row, and each run is written at once. A row
/// equal to the one above is filtered Up (zeros, one run); any other is unfiltered (filter type 0,
/// the ids big-endian). The file's framing is `PNGFile`'s.
enum MaskPNG {
    static func encode(_ mask: InstanceMask) -> [UInt8] {
        var png = PNGFile(capacity: 8192)
        png.header(width: mask.width, height: mask.height, bitDepth: 16, colorType: 0)  // 16 bits a sample, greyscale
        png.chunk("IDAT", zlibStream(mask))
        png.end()
        return png.bytes
    }

    /// The rows (each a filter byte, then its ids big-endian, or for Up their differences: zeros)
    /// as a zlib stream (RFC 1950):
    /// deflate with a 32 KiB window, no dictionary, then the Adler-32 of the rows.
    private static func zlibStream(_ mask: InstanceMask) -> [UInt8] {
        var deflater = RunDeflater(capacity: 4096)
        mask.ids.withUnsafeBufferPointer { ids in
            guard var row = ids.baseAddress else { return }
            let width = mask.width
            for y in 0..<mask.height {
                // A row equal to the one above is filter type 2 (Up): all zeros, one run.
                if y > 0, memcmp(row, row - width, 2 &* width) == 0 {
                    deflater.byte(2)
                    deflater.pairs(high: 0, low: 0, count: width)
                    row += width
                    continue
                }
                deflater.byte(0)
                var start = 0
                while start < width {
                    let id = row[start]
                    var end = start &+ 1
                    // Four ids at a time while the run lasts, then one by one.
                    let four = UInt64(id) &* 0x0001_0001_0001_0001
                    while end &+ 4 <= width, UnsafeRawPointer(row + end).loadUnaligned(as: UInt64.self) == four { end &+= 4 }
                    while end < width, row[end] == id { end &+= 1 }
                    deflater.pairs(high: UInt8(truncatingIfNeeded: id &>> 8), low: UInt8(truncatingIfNeeded: id), count: end &- start)
                    start = end
                }
                row += width
            }
        }
        deflater.finish()
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window; 0x7801 is a multiple of 31
        stream += deflater.bytes
        stream.appendBigEndian(deflater.adler32)
        return stream
    }
}
