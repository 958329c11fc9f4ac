import LiveProtocol
import Physics
import SceneModel
import Serve
import Testing

/// The live page draws a body of parts part by part: the scene message carries each part's
/// outline in the body's frame, its radius and its colour.
@Suite(.timeLimit(.minutes(3)))
struct CompoundLiveMessageTests {
    @Test func theSceneMessageCarriesEachPartsOutlineAndColour() throws {
        let parts = [BodyPart(shape: .box(size: Vec2(20, 10)), mass: 1),
                     BodyPart(shape: .circle(radius: 4), offset: Vec2(12, 0), mass: 1, color: RGB(0x12, 0x34, 0x56))]
        let scene = Scene(name: "parts", worldSize: Vec2(200, 200), gravity: Vec2(0, -1000),
                          crates: [CrateSpec(center: Vec2(100, 100), shape: .compound(parts: parts), mass: 2, color: RGB(0xaa, 0xbb, 0xcc))])
        let message = LiveMessages.scene(scene, world: try World(scene: scene))
        #expect(message.contains(##""compound",[-16.0,-5.0,16.0,-5.0,16.0,5.0,-16.0,5.0],0.0,"##
                                 + ##"[[[-10.0,-5.0,10.0,-5.0,10.0,5.0,-10.0,5.0],0.0,"#aabbcc"],[[12.0,0.0],4.0,"#123456"]]]"##),
                "\(message)")
    }
}
