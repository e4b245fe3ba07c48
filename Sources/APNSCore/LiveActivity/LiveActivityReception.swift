
/// Whether a Live Activity push reached the simulated device: refused before it (strict mode on a payload warning,
/// so the device state is untouched), or received with what the device did.
public enum LiveActivityReception: Sendable, Hashable {
    /// Not delivered to the device; `warnings` are the payload checker's findings that led to the refusal.
    case refused(warnings: [PushWarning])
    /// Delivered; the device's result.
    case received(LiveActivityResult)

    /// The payload checker's warnings (`la-*` codes), either way.
    public var warnings: [PushWarning] {
        switch self {
        case .refused(let warnings): warnings
        case .received(let result): result.warnings
        }
    }
}
