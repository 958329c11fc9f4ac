import FileIO
import SceneFile
import SceneModel
import Script

/// Every line of an input file with its step (timed lines only), or the command ends with the
/// first bad line (exit 65) or an unreadable file (66).
package func timedInputs(path: String, scene: Scene) throws -> [(step: Int, action: InputAction)] {
    let bytes: [UInt8]
    do {
        bytes = try FileBytes.read(path: path, limit: RunRecord.maxFileSize)
    } catch {
        printError("cratedrop: \(path): \(error)")
        throw ExitCodes.noInput
    }
    var parser = GravityLineParser(source: path, stepRate: scene.stepRate, gravityMagnitude: scene.gravity.length, axes: .portrait)
    var changes: [(step: Int, action: InputAction)] = []
    for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        let text = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
        if text.isEmpty { continue }
        switch parser.read(text, line: index + 1) {
        case let .success(command?):
            guard case let .step(step) = command.when else {
                printError("cratedrop: \(path):\(index + 1): an untimed line has no step")
                throw ExitCodes.dataError
            }
            changes.append((step, command.action))
        case .success(nil):
            continue
        case let .failure(error):
            printError("cratedrop: \(error)")
            throw ExitCodes.dataError
        }
    }
    return changes
}
