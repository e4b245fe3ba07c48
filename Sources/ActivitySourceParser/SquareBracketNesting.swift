/// How deeply square brackets nest in a Swift source, found lexically before the file reaches swift-syntax.
///
/// swift-syntax's parser looks ahead at every `[` to decide between an array/dictionary type, an inline array type
/// and an expression, and that lookahead backtracks: its time doubles with each nesting level (measured on this
/// toolchain's debug build: 14 levels 0.15 s, 18 levels 1 s, 20 levels 21 s, balanced or not). A fuzzer found this
/// with `["nobody"][[[[[[…`. Real activity attributes nest a few levels (`[String: [Int]]` is two), so a file nested
/// deeper than `limit` is not parsed; its name and line are reported as a problem instead.
///
/// Comments are skipped (no code inside them); string literals are not, since interpolations hold code. A string
/// with many unbalanced `[` can therefore make a file count as too deep: the problem message says so.
enum SquareBracketNesting {
    /// The deepest nesting accepted. Eight leaves room for any real `ContentState` and costs milliseconds.
    static let limit = 8

    /// The first line where nesting exceeds `limit`, or nil when the source stays within it.
    static func firstLineTooDeep(in text: String, limit: Int = limit) -> Int? {
        let bytes = Array(text.utf8)
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), newline = UInt8(ascii: "\n")
        var depth = 0
        var line = 1
        var index = 0
        var blockComments = 0
        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == newline { line += 1 }
            if blockComments > 0 {
                if byte == star, at(1) == slash { blockComments -= 1; index += 2; continue }
                if byte == slash, at(1) == star { blockComments += 1; index += 2; continue }
                index += 1
                continue
            }
            if byte == slash, at(1) == slash {
                while index < bytes.count, bytes[index] != newline { index += 1 }
                continue
            }
            if byte == slash, at(1) == star { blockComments = 1; index += 2; continue }
            if byte == UInt8(ascii: "[") {
                depth += 1
                if depth > limit { return line }
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            }
            index += 1
        }
        return nil
    }
}
