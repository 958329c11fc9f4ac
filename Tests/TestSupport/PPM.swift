/// A strict reader of binary PPM (P6, maxval 255) images and streams, for checking what the
/// renderer wrote.
public struct PPMImage: Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads every image of a stream of PPMs written back to back; throws on any malformed or
    /// truncated image.
    public static func readStream(_ bytes: [UInt8]) throws -> [PPMImage] {
        var images: [PPMImage] = []
        var index = 0
        while index < bytes.count {
            let (image, next) = try read(bytes, at: index)
            images.append(image)
            index = next
        }
        return images
    }

    /// Reads exactly one image filling all of `bytes`.
    public static func readFile(_ bytes: [UInt8]) throws -> PPMImage {
        let (image, next) = try read(bytes, at: 0)
        guard next == bytes.count else { throw FormatError(description: "\(bytes.count - next) bytes after the image") }
        return image
    }

    private static func read(_ bytes: [UInt8], at start: Int) throws -> (PPMImage, Int) {
        var index = start
        func token() throws -> String {
            // Whitespace and '#' comments separate header fields.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if [9, 10, 13, 32].contains(bytes[index]) {
                    index += 1
                } else {
                    break
                }
            }
            let from = index
            while index < bytes.count, ![9, 10, 13, 32].contains(bytes[index]) { index += 1 }
            guard index > from else { throw FormatError(description: "header ends early at byte \(from)") }
            return String(decoding: bytes[from..<index], as: UTF8.self)
        }
        guard try token() == "P6" else { throw FormatError(description: "not a P6 image at byte \(start)") }
        guard let width = Int(try token()), let height = Int(try token()), width > 0, height > 0 else {
            throw FormatError(description: "bad size")
        }
        guard try token() == "255" else { throw FormatError(description: "maxval is not 255") }
        index += 1  // the single whitespace byte after maxval
        let end = index + width * height * 3
        guard end <= bytes.count else {
            throw FormatError(description: "truncated: \(bytes.count - index) of \(width * height * 3) pixel bytes")
        }
        return (PPMImage(width: width, height: height, pixels: Array(bytes[index..<end])), end)
    }
}
