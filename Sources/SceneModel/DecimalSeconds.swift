/// A non-negative duration written in decimal seconds ("10", "2.5", "0.125"), kept exact so that
/// step counts come from integer arithmetic: 0.1 s at 120 steps/s is exactly 12 steps, not 12.000000000000002.
public struct DecimalSeconds: Sendable, Equatable, CustomStringConvertible {
    /// The value times 10^`fractionDigits`.
    public let scaled: Int64
    public let fractionDigits: Int

    /// Parses digits with an optional fractional part (at most 9 digits after the point). No sign,
    /// no exponent; returns nil for anything else or for values over 10^9 s.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(point ?? bytes.count)]
        let fraction = point.map { bytes[($0 + 1)...] } ?? []
        guard !(whole.isEmpty && fraction.isEmpty), whole.count <= 10, fraction.count <= 9,
              whole.allSatisfy(isASCIIDigit), fraction.allSatisfy(isASCIIDigit), !(point != nil && fraction.isEmpty)
        else { return nil }
        // Ten whole digits times 10^9 can pass Int64: compute wide, then check the 10^9 s limit.
        let value = DecimalSeconds.number(whole) * Int128(DecimalSeconds.power(fraction.count)) + DecimalSeconds.number(fraction)
        guard value <= 1_000_000_000 * Int128(DecimalSeconds.power(fraction.count)) else { return nil }
        scaled = Int64(value)
        fractionDigits = fraction.count
    }

    /// The shortest duration with 9 decimals that holds exactly `steps` steps at `stepRate`:
    /// ceil(steps / rate) to the nanosecond, so that `steps(atRate:)` gives `steps` back. Nil past
    /// 10^9 s.
    public static func covering(steps: Int, atRate stepRate: Int) -> DecimalSeconds? {
        guard steps >= 0, stepRate > 0 else { return nil }
        let nanoseconds = (Int128(steps) * 1_000_000_000 + Int128(stepRate) - 1) / Int128(stepRate)
        guard nanoseconds <= 1_000_000_000 * 1_000_000_000 else { return nil }
        let whole = nanoseconds / 1_000_000_000, fraction = String(nanoseconds % 1_000_000_000)
        return DecimalSeconds("\(whole).\(fraction.zeroPadded(toWidth: 9))")
    }

    /// Whole steps that fit in this duration at `stepRate` steps per second: floor(seconds × rate).
    /// Exact for every duration this type holds (at most 10^9 s) at any rate up to 10^9 steps/s.
    public func steps(atRate stepRate: Int) -> Int {
        Int(Int128(scaled) * Int128(stepRate) / Int128(DecimalSeconds.power(fractionDigits)))
    }

    /// The first step whose start time is at or after this time: ceil(seconds × rate).
    public func stepsRoundedUp(atRate stepRate: Int) -> Int {
        let p = Int128(DecimalSeconds.power(fractionDigits))
        return Int((Int128(scaled) * Int128(stepRate) + p - 1) / p)
    }

    /// Whether this duration is shorter than `other`, compared exactly.
    public func isLess(than other: DecimalSeconds) -> Bool {
        let digits = max(fractionDigits, other.fractionDigits)
        return Int128(scaled) * Int128(DecimalSeconds.power(digits - fractionDigits))
            < Int128(other.scaled) * Int128(DecimalSeconds.power(digits - other.fractionDigits))
    }

    /// Frames needed to reach this duration at `fps`: ceil(seconds × fps).
    public func frameCount(fps: Int) -> Int {
        let p = Int128(DecimalSeconds.power(fractionDigits))
        return Int((Int128(scaled) * Int128(fps) + p - 1) / p)
    }

    public var description: String {
        guard fractionDigits > 0 else { return String(scaled) }
        let p = DecimalSeconds.power(fractionDigits)
        let fraction = String(scaled % p)
        return "\(scaled / p).\(fraction.zeroPadded(toWidth: fractionDigits))"
    }

    /// The value of at most 19 ASCII digits (0 for none).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int128 {
        digits.reduce(0) { $0 * 10 + Int128($1 - UInt8(ascii: "0")) }
    }

    private static func power(_ n: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<n { result *= 10 }
        return result
    }
}
