import APNSCore
import Foundation
import SwiftParser
import SwiftSyntax

/// Derives `ActivitySchema`s from the same Swift files the iOS app compiles: every type conforming to
/// `ActivityAttributes` (directly, through an extension, or through a protocol that refines it), its stored
/// properties (the static attributes) and its `ContentState` (nested, or `typealias ContentState = …`), with the
/// JSON shape synthesized `Codable` gives each field. Types declared in the same set of files are followed; the
/// rest is reported in `problems`.
package enum ActivitySourceParser {
    /// Parses files and folders (folders recursively, `*.swift` only, hidden folders and `.build` skipped).
    package static func parse(paths: [String]) throws -> ActivitySourceParseResult {
        var sources: [(path: String, text: String)] = []
        for path in paths {
            for file in try swiftFiles(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw ActivitySourceError(path: file, reason: "unreadable")
                }
                sources.append((file, String(decoding: data, as: UTF8.self)))
            }
        }
        return parse(sources: sources)
    }

    /// Parses source text already in memory (`path` is used in problem messages only).
    package static func parse(sources: [(path: String, text: String)]) -> ActivitySourceParseResult {
        var table = DeclarationTable()
        var skipped: [String] = []
        for source in sources {
            if let line = SquareBracketNesting.firstLineTooDeep(in: source.text) {
                skipped.append("\(source.path):\(line): square brackets nested more than \(SquareBracketNesting.limit) "
                    + "deep (counting any in string literals); the file is not read, since the Swift parser's time "
                    + "doubles with every level. Types declared in it are unknown")
                continue
            }
            let tree = Parser.parse(source: source.text)
            let collector = DeclarationCollector(file: source.path, tree: tree, table: table)
            collector.walk(tree)
            table = collector.table
        }
        table.mergePendingExtensions()
        var resolver = ShapeResolver(table: table)
        var schemas: [ActivitySchema] = []
        for name in table.order where conformsToActivityAttributes(name, table: table) {
            guard let schema = schema(for: name, table: table, resolver: &resolver) else { continue }
            if let existing = schemas.first(where: { $0.attributesType == schema.attributesType }) {
                resolver.report(table.types[name]!.position, name, "another type named \(schema.attributesType) was "
                    + "already found at \(existing.source ?? "?"); attributes-type names must be unique, the first is used")
                continue
            }
            schemas.append(schema)
        }
        return ActivitySourceParseResult(schemas: schemas, problems: skipped + resolver.problems, files: sources.map(\.path))
    }

    private static func schema(
        for name: String, table: DeclarationTable, resolver: inout ShapeResolver
    ) -> ActivitySchema? {
        guard let declaration = table.types[name] else { return nil }
        let attributesShape = resolver.shape(ofDeclaration: name, subject: name, position: declaration.position)
        var attributes: [SchemaField] = []
        var attributesChecked = false
        if case .object(_, let fields) = attributesShape {
            attributes = fields
            attributesChecked = true
        }
        var contentState: [SchemaField] = []
        var contentStateChecked = false
        var contentStateType = "ContentState"
        let stateName = "\(name).ContentState"
        var stateShape: CodableShape?
        if table.types[stateName] != nil {
            stateShape = resolver.shape(ofDeclaration: stateName, subject: stateName, position: declaration.position)
        } else if let alias = table.aliases[stateName] {
            contentStateType = alias.target.trimmedDescription
            stateShape = resolver.shape(of: alias.target, scope: alias.scope, subject: stateName, position: alias.position)
        } else {
            resolver.report(declaration.position, name, "conforms to ActivityAttributes but no ContentState (nested type "
                + "or typealias) is declared in the given files; content-state is not checked")
        }
        if case .object(_, let fields)? = stateShape {
            contentState = fields
            contentStateChecked = true
        } else if let stateShape, case .unresolved = stateShape {
            // already reported by the resolver
        } else if stateShape != nil {
            resolver.report(declaration.position, stateName, "is not a struct or class; content-state is not checked")
        }
        return ActivitySchema(
            attributesType: declaration.name, attributes: attributes, contentState: contentState,
            contentStateType: contentStateType, source: declaration.position.description,
            attributesChecked: attributesChecked, contentStateChecked: contentStateChecked)
    }

    /// Whether a declared (non-protocol) type lists `ActivityAttributes`, or a protocol refining it, among what it
    /// inherits, in its declaration or any extension.
    static func conformsToActivityAttributes(_ name: String, table: DeclarationTable) -> Bool {
        guard let declaration = table.types[name], declaration.kind != .protocolType else { return false }
        var visited: Set<String> = []
        func refines(_ inherited: String, scope: String) -> Bool {
            if inherited == "ActivityAttributes" || inherited == "ActivityKit.ActivityAttributes" { return true }
            guard let qualified = table.qualifiedName(of: inherited, from: scope), visited.insert(qualified).inserted,
                  let parent = table.types[qualified], parent.kind == .protocolType
            else { return false }
            return parent.inherited.contains { refines($0, scope: qualified) }
        }
        let components = inheritedComponents(declaration.inherited)
        return components.contains { refines($0, scope: name) }
    }

    /// `A & B` compositions split into their parts.
    private static func inheritedComponents(_ names: [String]) -> [String] {
        names.flatMap { $0.split(separator: "&").map { String($0).trimmingCharacters(in: " ") } }
    }

    /// `path` itself when it is a file; every `*.swift` below it when it is a folder.
    static func swiftFiles(at path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ActivitySourceError(path: path, reason: "no such file or folder")
        }
        guard isDirectory.boolValue else { return [path] }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw ActivitySourceError(path: path, reason: "folder cannot be listed")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let lastComponent = relative.split(separator: "/").last.map(String.init) ?? relative
            if lastComponent.hasPrefix(".") || lastComponent == ".build" {
                enumerator.skipDescendants()
                continue
            }
            if relative.hasSuffix(".swift") { files.append((path as NSString).appendingPathComponent(relative)) }
        }
        return files.sorted()
    }
}
