/// The APNs environments a signing key may be used in.
///
/// Team-scoped keys made since 2025 are restricted to Sandbox **or** Production; keys made before keep working in
/// both. Source: A-TOKEN.
public enum KeyEnvironmentScope: String, Sendable, Hashable, Codable, CaseIterable {
    case development
    case production
    case both

    public func allows(_ environment: APNsEnvironment) -> Bool {
        switch self {
        case .both: true
        case .development: environment == .development
        case .production: environment == .production
        }
    }
}
