// The Embedded core (the wasm page's, the Python package's) reads no files and has no libspng
// yet: a scene with a terrain picture is refused at its `image` key, as an unreadable picture is
// natively.
#if hasFeature(Embedded)
import SceneModel

enum TerrainPicture {
    static func fileBytes(path: String) -> Result<[UInt8], TerrainPictureError> {
        .failure(.unreadable("terrain pictures cannot be read by the Embedded core (the wasm page, the Python package) yet (run the scene with the cratedrop command)"))
    }

    static func samples(png bytes: [UInt8], channel: TerrainChannel) -> Result<TerrainSamples, TerrainPictureError> {
        .failure(.undecodable("the Embedded core (the wasm page, the Python package) has no PNG decoder yet"))
    }
}
#endif
