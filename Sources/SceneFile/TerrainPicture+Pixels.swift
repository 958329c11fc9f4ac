import SceneModel

/// What the CLI's decoder (TerrainPicture_spng.swift) and the wasm core's
/// (TerrainPicture_embedded.swift) share, so that both give the same samples and messages.
extension TerrainPicture {
    /// PNG's eight-byte signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static var sideTooLarge: TerrainPictureError { .tooLarge("larger than \(TerrainLimits.maxSide) pixels on a side") }

    static func tooManyPixels(width: Int, height: Int) -> TerrainPictureError {
        .tooLarge("\(width)×\(height) is more than \(TerrainLimits.maxPixels) pixels")
    }

    /// The solidity samples of RGBA8 pixels (rows from the top, as PNG holds them), read through
    /// `channel`, with rows turned bottom-up: the world's y points up.
    static func samples(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channel: TerrainChannel) -> TerrainSamples {
        var solidity = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            let source = row * width * 4, target = (height - 1 - row) * width
            for column in 0..<width {
                let p = source + column * 4
                solidity[target + column] = channel.solidity(r: rgba[p], g: rgba[p + 1], b: rgba[p + 2], a: rgba[p + 3])
            }
        }
        return TerrainSamples(width: width, height: height, solidity: solidity)
    }
}
