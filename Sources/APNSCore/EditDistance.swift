/// Levenshtein distance between two spellings: the number of single-character insertions, deletions and
/// substitutions that turn one into the other. The one implementation behind every "did you mean" the mock
/// prints (aps keys, Live Activity payload keys, configuration keys, fault-spec keys, warning codes).
public enum EditDistance {
    public static func between<A: Collection, B: Collection>(_ a: A, _ b: B) -> Int
    where A.Element == Character, B.Element == Character {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
