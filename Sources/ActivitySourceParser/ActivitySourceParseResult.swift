import APNSCore

/// The `ActivityAttributes` types found in the app's Swift files, and what could not be resolved.
package struct ActivitySourceParseResult: Sendable {
    /// One schema per type conforming to `ActivityAttributes`, in declaration order.
    package var schemas: [ActivitySchema]
    /// Fields or types the mock could not resolve, as `path:line: Type.property: message`. These fields are not
    /// checked; nothing is guessed.
    package var problems: [String]
    /// The Swift files that were read.
    package var files: [String]

    package init(schemas: [ActivitySchema], problems: [String], files: [String]) {
        self.schemas = schemas
        self.problems = problems
        self.files = files
    }
}

/// A path given to `ActivitySourceParser.parse(paths:)` that cannot be read.
package struct ActivitySourceError: Error, CustomStringConvertible, Sendable {
    package var path: String
    package var reason: String
    package var description: String { "cannot read activity source \(path): \(reason)" }
}
