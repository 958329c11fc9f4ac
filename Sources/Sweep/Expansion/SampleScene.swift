import SceneFile
import SceneModel

/// A sample's scene: the base scene file with the sample's scene values set, written back as
/// text (so the sample's folder holds exactly the scene it ran) and checked as any scene file is.
enum SampleScene {
    /// The scene file text with `values` set, and the scene it holds; its pictures are read
    /// beside `imagesBeside` (the base scene file).
    /// - Throws: the first reason it is not a valid scene: a path that cannot be set, or the
    ///   scene decoder's messages (`generator.count: must be ...`), joined by `; `.
    static func make(setting values: [(SceneFieldPath, JSONValue)], in document: JSONValue,
                     file: String = "scene.json", imagesBeside: String? = nil) throws(Problem) -> (text: [UInt8], scene: CheckedScene) {
        var changed = document
        for (path, value) in values {
            do {
                changed = try path.setting(value, in: changed)
            } catch {
                throw Problem(description: "cannot set \(path): \(error)")
            }
        }
        let text = Array((JSONOutput(changed).documentText + "\n").utf8)
        do {
            return (text, try SceneLoader.parseChecked(text, file: file, imagesBeside: imagesBeside))
        } catch {
            switch error {
            case let .invalid(problems):
                let errors = problems.filter { $0.severity == .error }
                throw Problem(description: "the scene refuses it: " + errors.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }.joined(separator: "; "))
            case let .unreadable(_, reason):
                throw Problem(description: reason)
            }
        }
    }

    /// Why a sample's scene is not valid, or nil when it is.
    static func problem(setting values: [(SceneFieldPath, JSONValue)], in document: JSONValue, imagesBeside: String? = nil) -> String? {
        do {
            _ = try make(setting: values, in: document, imagesBeside: imagesBeside)
            return nil
        } catch {
            return error.description
        }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }
}
