#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Outputs
import Physics
import SceneModel
import Session
import TestSupport
import Testing

/// The libraries leave the process as they found it: SIGPIPE's handling, thread priorities and
/// stdout change only when the program asks (each case runs in a child process of its own).
@Suite struct ProcessEffectsTests {
    /// A plan whose video encoder fails at once, so every frame after it meets a closed pipe.
    static func failingVideoPlan(width: Int, height: Int, priority: RunPlan.ThreadPriority = .unchanged) throws -> RunPlan {
        let scene = try Repository.scene("book")
        var plan = RunPlan(start: .scene(scene, file: "book.json", text: []), length: .duration(DecimalSeconds("1")!), clock: .virtual(fps: 30))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString).mp4").path
        plan.frames = .init(destination: .video(path, format: .mp4, encoderArguments: ["-c:v", "no-such-encoder"]), width: width, height: height)
        plan.threadPriority = priority
        return plan
    }

    /// With SIGPIPE at its default (death), frames written and spliced into an encoder that has
    /// exited come back as a write error: the process lives and reports it.
    @Test func aClosedEncoderPipeIsAnErrorEvenWhereSIGPIPEKills() async {
        await #expect(processExitsWith: .success) {
            signal(SIGPIPE, SIG_DFL)
            for (width, height) in [(64, 64), (1280, 720)] {
                let outcome = try RunEngine(plan: ProcessEffectsTests.failingVideoPlan(width: width, height: height)).run(shouldStop: { false })
                guard outcome.render?.failure != nil else { exit(2) }
            }
            // The disposition is still the one this process set.
            var action = sigaction()
            sigaction(SIGPIPE, nil, &action)
            exit(action.__sigaction_handler.sa_handler == nil ? 0 : 3)
        }
    }

    /// The thread that runs a plan keeps its priority unless the plan asks it to yield to the encoder.
    @Test func aRunLowersNoThreadUnlessAsked() async {
        await #expect(processExitsWith: .success) {
            errno = 0
            let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            _ = try RunEngine(plan: ProcessEffectsTests.failingVideoPlan(width: 64, height: 64)).run(shouldStop: { false })
            let after = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            exit(before == after ? 0 : 2)
        }
        await #expect(processExitsWith: .success) {
            let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            _ = try RunEngine(plan: ProcessEffectsTests.failingVideoPlan(width: 64, height: 64, priority: .yieldToVideoEncoder))
                .run(shouldStop: { false })
            let after = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            exit(after == min(before + 10, 19) ? 0 : 2)
        }
    }

    /// Building a world leaves stdout alone: the debug build's banner appears there unless the
    /// program silences it first, as `cratedrop` does.
    @Test func theBannerIsSilencedOnlyWhenAsked() async throws {
        let printed = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            _ = try World(scene: Repository.scene("book"))
            fflush(nil)
            exit(0)
        }
        // (The child's stdout also carries the test library's own bytes: look for the banner's words.)
        func showsBanner(_ result: ExitTest.Result?) -> Bool {
            String(decoding: result?.standardOutputContent ?? [], as: UTF8.self).contains("Initializing cpSpace - Chipmunk")
        }
        // Only Debian's debug build prints one; the portable backend is built with -DNDEBUG.
        if PhysicsBackend.current.kind == .system { #expect(showsBanner(printed)) } else { #expect(!showsBanner(printed)) }
        let silenced = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            DebugBanner.silence()
            _ = try World(scene: Repository.scene("book"))
            fflush(nil)
            exit(0)
        }
        #expect(silenced != nil && !showsBanner(silenced))
    }
}
