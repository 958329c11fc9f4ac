import SceneModel

/// "Did you mean" for a misspelled scene key: the allowed key closest to it by edit distance.
///
/// The distance is Damerau–Levenshtein in its optimal-string-alignment form (insertions,
/// deletions, substitutions and swaps of neighbours each cost 1) over Unicode scalars, on keys
/// with A-Z lower-cased, so
/// `frction`, `firction` and `Friction` all find `friction`. A few words other engines use for
/// the same thing are suggested outright (`restitution` for `elasticity`, `centre` for `center`).
/// Written here, not taken from a library: the package depends on nothing that offers it (swift-
/// argument-parser's own suggestion code is internal), and it is twenty lines.
package enum KeySuggestion {
    /// Words other engines and spellings use, mapped to this format's key.
    static let synonyms = ["restitution": "elasticity", "bounciness": "elasticity", "centre": "center", "position": "center",
                           "colour": "color", "colours": "colors", "rotation": "angle"]

    /// The key among `candidates` that `key` most likely misspells, or nil if none is close:
    /// at most 1 edit for keys of up to 5 characters, at most 2 for longer ones. Ties go to the
    /// earlier candidate.
    package static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = key.asciiLowercased()
        if let synonym = synonyms[lowered], candidates.contains(synonym) { return synonym }
        let limit = lowered.unicodeScalars.count <= 5 ? 1 : 2
        var best: (key: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.asciiLowercased())
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.key
    }

    /// Optimal string alignment distance between `a` and `b`, by Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the dynamic programming table: two back (for swaps), one back, current.
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
