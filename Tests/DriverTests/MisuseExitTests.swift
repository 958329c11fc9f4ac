import Driver
import Testing

/// The preconditions left in the driver guard programmer misuse only: the CLI validates every
/// value from outside first (`--fps` is checked to be in 1...10000 before a clock exists), so
/// these traps are reachable only by calling the API wrongly. Each is proved to trap.
@Suite struct MisuseExitTests {
    @Test func aClockWithoutFramesTraps() async {
        await #expect(processExitsWith: .failure) { _ = VirtualFrameClock(fps: 0) }
    }

    @Test func aTraceGoingBackwardsTraps() async {
        await #expect(processExitsWith: .failure) { _ = TraceFrameClock(nanoseconds: [2, 1]) }
    }
}
