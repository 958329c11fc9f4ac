import Raster
import SceneModel
import Testing

/// An empty image is programmer misuse: `--size` and the scene's render size are validated to
/// 1...16384 before any image is made.
@Suite struct ImageMisuseExitTests {
    @Test func anEmptyImageTraps() async {
        await #expect(processExitsWith: .failure) { _ = RGBImage(width: 0, height: 1, fill: RGB(0, 0, 0)) }
    }
}
