
/// Every warning code the mock can put in a delivery record, in one list: the rules' (`PushWarningCode`,
/// docs/rules.md), provider-token authentication's (`AuthWarningCode`, docs/authentication.md) and the simulated
/// Live Activity device's (`LiveActivityWarningCode`, docs/live-activities.md). Strict mode accepts exactly these
/// codes, so a misspelt one is refused when the configuration loads instead of silently never matching.
public enum WarningCodeCatalogue {
    /// The codes about the request itself: the payload and header rules' and the provider token's. `strictAll`
    /// (`--strict`) turns every one of these into a rejection; Live Activity payload findings are judged under
    /// `--strict` by the simulated device instead (a push it would drop is answered `MockDevice…`), and an `la-*`
    /// code named in `rules.strict` rejects on its own.
    public static let requestCodes: [String] =
        PushWarningCode.allCases.map(\.rawValue) + AuthWarningCode.allCases.map(\.rawValue)

    /// Every code.
    public static let codes: [String] = requestCodes + LiveActivityWarningCode.allCases.map(\.rawValue)

    private static let known = Set(codes)

    public static func contains(_ code: String) -> Bool { known.contains(code) }

    /// ` (did you mean "…"?)` when a known code is within a few edits of `code`, else "".
    public static func suggestion(for code: String) -> String {
        let best = codes.map { ($0, EditDistance.between(code, $0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= 3 else { return "" }
        return " (did you mean \"\(best.0)\"?)"
    }
}
