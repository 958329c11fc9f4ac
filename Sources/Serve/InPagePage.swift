import FileIO
import Foundation
import SceneFile
import SceneModel

/// The live page with the world running in it (docs/serve.md, "The world in the page (WebAssembly)"): the same
/// page `cratedrop serve` streams to, with CrateDrop's core as WebAssembly, the scene and its
/// inputs inside one HTML file. Everything is inline because a browser refuses a page opened from
/// `file://` any other file it asks for (scripts as modules, fetches); a static server serves it
/// as well.
package enum InPagePage {
    /// What the page is made of beside the page's own files.
    package struct Engine: Sendable {
        /// cratedrop.wasm, as `Backends/wasm/build` makes it.
        package var wasm: [UInt8]
        /// cratedrop.js, its JavaScript API.
        package var script: [UInt8]
        /// cratedrop-png.wasm, the terrain pictures' decoder, if the build has it.
        package var pictureDecoder: [UInt8]?

        package init(wasm: [UInt8], script: [UInt8], pictureDecoder: [UInt8]? = nil) {
            self.wasm = wasm
            self.script = script
            self.pictureDecoder = pictureDecoder
        }
    }

    /// No WebAssembly build where the engine was looked for.
    package struct EngineMissing: Error, CustomStringConvertible {
        /// The folder looked in.
        package var folder: String
        package var reason: FileFailure
        package var description: String { "\(folder): no WebAssembly build of CrateDrop's core there (\(reason))" }
    }

    /// The engine in `folder`, else in `$CRATEDROP_WASM_DIR`, else where `Backends/wasm/build` puts it.
    package static func engine(in folder: String?) throws(EngineMissing) -> Engine {
        let folder = folder ?? ProcessInfo.processInfo.environment["CRATEDROP_WASM_DIR"] ?? ".build-wasm/out"
        do {
            return Engine(wasm: try FileBytes.read(path: "\(folder)/cratedrop.wasm", limit: 16 << 20),
                          script: try FileBytes.read(path: "\(folder)/cratedrop.js", limit: 1 << 20),
                          pictureDecoder: try? FileBytes.read(path: "\(folder)/cratedrop-png.wasm", limit: 16 << 20))
        } catch {
            throw EngineMissing(folder: folder, reason: error)
        }
    }

    package struct MissingFile: Error, CustomStringConvertible {
        package var description: String
    }

    /// The HTML of a page running `scene` (its file's bytes, named `name` in messages), after
    /// `inputs` (an input stream's text, or nil). `served`: the page comes from `cratedrop serve`,
    /// so a browser without WebAssembly falls back to the server's streamed world. `pictures`:
    /// the terrain pictures the scene names (`pictures(ofScene:)`), and with them the decoder.
    /// - Throws: `MissingFile` when the page's own files are not in the package's resources, or
    ///   the scene has pictures and the build no decoder.
    package static func html(scene: [UInt8], name: String, inputs: (text: [UInt8], name: String)?, engine: Engine,
                            pictures: [(path: String, bytes: [UInt8])] = [], served: Bool = false) throws -> String {
        func file(_ name: String) throws -> String {
            guard let bytes = PageFiles.contents(name) else { throw MissingFile(description: "the page's \(name) is missing from CrateDrop's resources") }
            return String(decoding: bytes, as: UTF8.self)
        }
        var config: [(String, String)] = [("name", quoted(name)), ("scene", quoted(String(decoding: scene, as: UTF8.self))),
                                          ("wasm", quoted(Data(engine.wasm).base64EncodedString()))]
        if served { config.append(("served", "true")) }
        if !pictures.isEmpty {
            guard let decoder = engine.pictureDecoder else {
                throw MissingFile(description: "the scene's terrain pictures need cratedrop-png.wasm beside cratedrop.wasm (Backends/wasm/build makes both)")
            }
            config.append(("pictures", quoted(Data(decoder).base64EncodedString())))
            config.append(("files", "{" + pictures.map { "\(quoted($0.path)): \(quoted(Data($0.bytes).base64EncodedString()))" }
                .joined(separator: ", ") + "}"))
        }
        if let inputs {
            config.append(("inputs", quoted(String(decoding: inputs.text, as: UTF8.self))))
            config.append(("inputsName", quoted(inputs.name)))
        }
        let settings = "window.CRATEDROP_PAGE = {" + config.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "};"
        let scripts = [settings, String(decoding: engine.script, as: UTF8.self), try file("blend.js"), try file("local.js"), try file("app.js")]
        var page = try file("index.html")
        page = try replacing(#"<link rel="stylesheet" href="style.css">"#, with: "<style>\n\(try file("style.css"))</style>", in: page)
        page = try replacing(#"<script src="blend.js"></script>"#, with: "", in: page)
        page = try replacing(#"<script src="local.js"></script>"#, with: "", in: page)
        let elements = try zip(["", "cratedrop-core", "", "", ""], scripts).map { id, text in try inlineScript(text, id: id) }
        return try replacing(#"<script src="app.js"></script>"#, with: elements.joined(separator: "\n  "), in: page)
    }

    /// A string as a JavaScript literal (a JSON string), with `<` written `\u003c`, so no text
    /// inside it can end the script element it sits in, and the line and paragraph separators
    /// escaped (they end a line in older JavaScript).
    static func quoted(_ text: String) -> String {
        JSONOutput.string(text).text.replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(of: "\u{2029}", with: "\\u2029")
    }

    /// The terrain pictures of the scene file at `path` (its text `scene`), keyed by the path the
    /// page's core asks for: beside `name`, the name the page gives the scene.
    /// - Throws: `FileFailure` when a picture cannot be read (the scene's check has read them all).
    package static func pictures(ofScene path: String, text scene: [UInt8], name: String) throws(FileFailure) -> [(path: String, bytes: [UInt8])] {
        var pictures: [(path: String, bytes: [UInt8])] = []
        for image in ScenePaths.pictures(inScene: scene) {
            let key = ScenePaths.resolve(image, besideScene: name)
            guard !pictures.contains(where: { $0.path == key }) else { continue }
            pictures.append((key, try FileBytes.read(path: ScenePaths.resolve(image, besideScene: path), limit: TerrainLimits.maxFileSize)))
        }
        return pictures
    }

    /// A script element holding `text`; `id` names it (the worker takes cratedrop.js's text from its element).
    private static func inlineScript(_ text: String, id: String) throws -> String {
        guard !text.lowercased().contains("</script") else { throw MissingFile(description: "a script of the page says </script, which would end it inline") }
        return "<script\(id.isEmpty ? "" : " id=\"\(id)\"")>\n\(text)\n</script>"
    }

    private static func replacing(_ old: String, with new: String, in page: String) throws -> String {
        guard page.contains(old) else { throw MissingFile(description: "the page's index.html no longer says \(old)") }
        return page.replacingOccurrences(of: old, with: new)
    }
}
