import Raster
import FileIO

/// Small text outputs (the run summary), written whole under a temporary name and renamed.
enum TextFile {
    /// - Returns: nil on success, else the reason.
    static func write(_ text: String, to path: String) -> String? {
        FileDescriptorIO.writeWhole([Array(text.utf8)], to: path)
    }
}
