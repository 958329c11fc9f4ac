import Outputs
import Raster
import SceneModel
import Testing

@Suite struct YUV420ConverterTests {
    /// BT.709 limited range, worked out from the matrix by hand: white (235, 128, 128), black
    /// (16, 128, 128), red (63, 102, 240), green (173, 42, 26), blue (32, 240, 118).
    @Test(arguments: [
        (RGB(255, 255, 255), [UInt8](arrayLiteral: 235, 128, 128)),
        (RGB(0, 0, 0), [16, 128, 128]),
        (RGB(255, 0, 0), [63, 102, 240]),
        (RGB(0, 255, 0), [173, 42, 26]),
        (RGB(0, 0, 255), [32, 240, 118]),
    ])
    func flatColoursConvertToTheirBT709Values(colour: RGB, expected: [UInt8]) {
        let converter = YUV420Converter(width: 4, height: 2)
        var output: [UInt8] = []
        converter.convert(RGBImage(width: 4, height: 2, fill: colour), into: &output)
        #expect(output.count == 12)
        #expect(Array(output[0..<8]) == Array(repeating: expected[0], count: 8))
        #expect(Array(output[8..<10]) == [expected[1], expected[1]] && Array(output[10..<12]) == [expected[2], expected[2]])
    }

    @Test func chromaIsTheMeanOfEachTwoByTwoBlock() {
        var image = RGBImage(width: 2, height: 2, fill: RGB(0, 0, 0))
        // Two white pixels and two black: chroma stays neutral, luma follows each pixel.
        image.pixels.replaceSubrange(0..<3, with: [255, 255, 255])
        image.pixels.replaceSubrange(9..<12, with: [255, 255, 255])
        var output: [UInt8] = []
        YUV420Converter(width: 2, height: 2).convert(image, into: &output)
        #expect(output == [235, 16, 16, 235, 128, 128])
    }
}

@Suite struct YUV420DeltaTests {
    /// Converting only what changed since the previous frame gives the same bytes as converting
    /// the whole frame, over a sequence where bodies move, appear and leave.
    @Test func convertingChangesOnlyEqualsConvertingEverything() {
        let converter = YUV420Converter(width: 96, height: 40)
        var whole: [UInt8] = [], delta: [UInt8] = []
        var previous: RGBImage?
        for frame in 0..<12 {
            var image = RGBImage(width: 96, height: 40, fill: RGB(240, 235, 225))
            // A square moving right by 7 px a frame, and one appearing every third frame.
            for y in 10..<22 {
                for x in (frame * 7)..<min(96, frame * 7 + 12) { image.pixels.replaceSubrange((y * 96 + x) * 3..<(y * 96 + x) * 3 + 3, with: [181, 131, 74]) }
            }
            if frame % 3 == 0 { image.pixels.replaceSubrange((35 * 96 + 50) * 3..<(35 * 96 + 50) * 3 + 3, with: [10, 200, 30]) }
            converter.convert(image, into: &whole)
            converter.convert(image, into: &delta, previous: previous)
            #expect(delta == whole, "frame \(frame)")
            previous = image
        }
    }

    /// Told where frames were drawn (their drawn regions), the converter compares only there and
    /// still gives the bytes of a whole conversion, over frames a renderer draws into recycled memory.
    @Test func convertingDrawnRegionsOnlyEqualsConvertingEverything() throws {
        let renderer = FrameRenderer(world: Vec2(100, 60), walls: [WallState(from: Vec2(0, 2), to: Vec2(100, 2), radius: 1)],
                                     bodyShapes: BodyShapes([(BodyID(1), .box(size: Vec2(12, 8))), (BodyID(2), .box(size: Vec2(9, 9)))]),
                                     width: 150, height: 90, colors: RenderDefaults(), overlays: [.aabb, .ids])
        let converter = YUV420Converter(width: 150, height: 90)
        var whole: [UInt8] = [], delta: [UInt8] = []
        var previous: RGBImage?
        var frame = renderer.render(WorldSnapshot(step: 0, bodies: []))
        for n in 0..<16 {
            let x = 10 + 5.3 * Double(n)
            var bodies = [BodyState(id: BodyID(1), position: Vec2(x, 20), angle: 0.3 * Double(n), velocity: .zero, angularVelocity: 0)]
            if n % 3 == 0 {
                bodies.append(BodyState(id: BodyID(2), position: Vec2(60, 40), angle: 0, velocity: .zero, angularVelocity: 0))
            }
            renderer.render(WorldSnapshot(step: n, bodies: bodies), into: &frame)
            let now = try #require(frame.drawnRegions)
            converter.convert(frame, into: &whole)
            converter.convert(frame, into: &delta, previous: previous, changed: previous.map { $0.drawnRegions!.rects + now.rects })
            #expect(delta == whole, "frame \(n)")
            previous = frame
        }
    }
}
