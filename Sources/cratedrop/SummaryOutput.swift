import CLISupport
import FileIO

/// Where `run` puts its one-line JSON summary.
enum SummaryOutput {
    /// The summary goes to --summary FILE, else stdout, else (stdout carrying frames) stderr.
    static func emit(_ json: String, to output: FrameOutputOptions) throws {
        if let path = output.summary {
            do {
                try FileDescriptorIO.writeWhole([Array((json + "\n").utf8)], to: path)
            } catch {
                printError("cratedrop: \(path): \(error)")
                printError(json)
                throw ExitCodes.ioError
            }
        } else if output.streamsToStdout {
            printError(json)
        } else {
            do {
                try StandardOutput.write(json)
            } catch .readerClosed {
                return
            } catch {
                _ = StandardOutput.exitCode(for: error)
                printError(json)
                throw ExitCodes.ioError
            }
        }
    }
}
