#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import FileIO
import Script
import Serve

struct Page: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes a page that runs a scene in the browser itself: no server, no install, offline.",
        discussion: """
            Writes DIR/index.html: the live page with CrateDrop's core as WebAssembly (Backends/wasm/build makes it), the scene and its inputs all inside one file, so it opens from file:// or any static file server. The page steps the world at the display's rate with the fixed-step driver, takes the same keys, tilts, drags, clicks and X as `cratedrop serve`, and shows the state hash, the CLI's own. Open it with ?check=N to step N steps without drawing and print the hash `cratedrop hash SCENE --steps N` prints. See docs/serve.md, "The world in the page (WebAssembly)".

            Examples:
              Backends/wasm/build
              cratedrop page Scenes/pile-1000.json --out out/page
              cratedrop page Scenes/book.json --inputs Scenes/inputs/book-tilt.jsonl --out out/book-page
            """
    )

    @Argument(help: "Scene file (JSON).", completion: .file())
    var scene: String

    @Option(help: ArgumentHelp("Folder to write index.html into (made if missing).", valueName: "DIR"))
    var out: String

    @Option(help: ArgumentHelp("An input stream (JSON Lines, timed lines) the page's world takes from its start.", valueName: "FILE"),
            completion: .file())
    var inputs: String?

    @Option(help: ArgumentHelp("Folder holding cratedrop.wasm and cratedrop.js (default: $CRATEDROP_WASM_DIR, else .build-wasm/out).",
                               valueName: "DIR"))
    var wasm: String?

    func validate() throws {
        try OutputChecks.check(inputs: [("the scene file", scene)] + (inputs.map { [("--inputs", $0)] } ?? []), outputs: [])
    }

    func run() throws {
        // The scene and its inputs are checked here first: a page never gets what the CLI refuses,
        // and the messages are the CLI's.
        let (checked, sceneText) = try loadCheckedSceneOrExit(scene)
        var inputStream: (text: [UInt8], name: String)?
        if let inputs {
            _ = try timedInputs(path: inputs, scene: checked.scene)
            inputStream = (try read(inputs, limit: RunRecord.maxFileSize, what: "--inputs"), inputs)
        }
        let engine: InPagePage.Engine
        do {
            engine = try InPagePage.engine(in: wasm)
        } catch {
            printError("cratedrop: \(error): make it with Backends/wasm/build, or name its folder with --wasm")
            throw ExitCodes.unavailable
        }
        let name = fileName(scene)
        let pictures = try pagePictures(ofScene: scene, text: sceneText, name: name)
        let html: String
        do {
            html = try InPagePage.html(scene: sceneText, name: name, inputs: inputStream.map { ($0.text, fileName($0.name)) }, engine: engine,
                                       pictures: pictures)
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.unavailable
        }
        let path = "\(out)/index.html"
        do {
            try makeFolders(out)
            try FileDescriptorIO.writeWhole([Array(html.utf8)], to: path)
        } catch {
            printError("cratedrop: \(path): cannot write the page: \(error)")
            throw ExitCodes.cannotCreate
        }
        try StandardOutput.print(path)
    }

    private func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        do {
            return try FileBytes.read(path: path, limit: limit)
        } catch {
            printError("cratedrop: \(path): cannot read \(what): \(error)")
            throw ExitCodes.noInput
        }
    }

    /// Makes `path` and the folders above it that are missing, as `mkdir -p` does.
    private func makeFolders(_ path: String) throws(FileFailure) {
        var made = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            made += made.isEmpty || made.hasSuffix("/") ? String(part) : "/\(part)"
            if FileDescriptorIO.kind(of: made) == .missing, mkdir(made, 0o755) != 0, errno != EEXIST { throw .fromErrno() }
        }
    }

    /// The name messages give a file: its last path component, as the page knows no folders.
    private func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}

/// The terrain pictures a page of the scene at `scene` carries (`InPagePage.pictures`); one that
/// cannot be read is said on stderr, exit 66. Used by `page` and by `serve`'s in-page mode.
func pagePictures(ofScene scene: String, text: [UInt8], name: String) throws -> [(path: String, bytes: [UInt8])] {
    do {
        return try InPagePage.pictures(ofScene: scene, text: text, name: name)
    } catch {
        printError("cratedrop: \(scene): cannot read a terrain picture it names: \(error)")
        throw ExitCodes.noInput
    }
}
