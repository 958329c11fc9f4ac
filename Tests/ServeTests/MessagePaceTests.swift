@testable import Serve
import Testing

struct MessagePaceTests {
    @Test func aBurstPassesThenMessagesWaitAtTheRate() {
        var pace = MessagePace()
        let start = ContinuousClock.now
        for _ in 0..<Int(MessagePace.burst) { #expect(pace.take(at: start) == .zero) }
        // Past the burst, debts under 10 ms are saved up, then waited off in one go.
        for _ in 0..<9 { #expect(pace.take(at: start) == .zero) }
        #expect(pace.take(at: start) == .milliseconds(10))
        // Having waited the 10 ms, the page is even again: the next message waits nothing.
        #expect(pace.take(at: start + .milliseconds(10)) == .zero)
    }

    @Test func aQuietPageEarnsNoMoreThanOneBurst() {
        var pace = MessagePace()
        let start = ContinuousClock.now
        _ = pace.take(at: start)
        let later = start + .seconds(60)
        var free = 0
        while pace.take(at: later) == .zero { free += 1 }
        #expect(free == Int(MessagePace.burst) + 9)
    }

    @Test func aSteadyPageAtTheRateNeverWaits() {
        var pace = MessagePace()
        let start = ContinuousClock.now
        for n in 0..<5000 {
            #expect(pace.take(at: start + .microseconds(n * 1000)) == .zero)
        }
    }
}
