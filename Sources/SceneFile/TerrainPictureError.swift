/// Why a terrain picture could not be read or decoded.
enum TerrainPictureError: Error, Equatable, CustomStringConvertible {
    case notPNG
    case tooLarge(String)
    case undecodable(String)
    /// The file could not be read: the reason as the file layer words it.
    case unreadable(String)

    var description: String {
        switch self {
        case .notPNG: "not a PNG file (it does not start with PNG's signature)"
        case let .tooLarge(reason): "the picture is too large: \(reason)"
        case let .undecodable(reason): "not a readable PNG: \(reason)"
        case let .unreadable(reason): reason
        }
    }
}
