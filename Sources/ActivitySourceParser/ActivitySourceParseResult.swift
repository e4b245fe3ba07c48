import APNSLiveActivity

/// The `ActivityAttributes` types found in the app's Swift files, and what could not be resolved.
public struct ActivitySourceParseResult: Sendable {
    /// One schema per type conforming to `ActivityAttributes`, in declaration order.
    public var schemas: [ActivitySchema]
    /// Fields or types the mock could not resolve, as `path:line: Type.property: message`. These fields are not
    /// checked; nothing is guessed.
    public var problems: [String]
    /// The Swift files that were read.
    public var files: [String]

    public init(schemas: [ActivitySchema], problems: [String], files: [String]) {
        self.schemas = schemas
        self.problems = problems
        self.files = files
    }
}

/// A path given to `ActivitySourceParser.parse(paths:)` that cannot be read.
public struct ActivitySourceError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "cannot read activity source \(path): \(reason)" }
}
