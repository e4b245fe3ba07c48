import APNSCore
import Foundation

/// The checks `--config FILE` passes before decoding: the file exists and is readable, is strict JSON (no trailing
/// commas, no comments, not cut short; errors carry line and column), and uses only keys the configuration knows
/// (with a "did you mean" for a misspelling, at every level). Every error names the file.
enum ConfigurationFileCheck {
    /// Reads `path`, or throws a one-line error that says what is wrong with it.
    static func read(path: String) throws(ConfigurationError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .invalid(path: path, detail: "no such file (the path is taken relative to \(FileManager.default.currentDirectoryPath))")
        }
        guard !isDirectory.boolValue else { throw .invalid(path: path, detail: "is a directory, not a JSON file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalid(path: path, detail: "cannot be read (check its permissions)")
        }
        return data
    }

    /// Throws the first syntax error or unknown key, as `configuration FILE:LINE:COLUMN: message`.
    static func check(_ data: Data, path: String) throws(ConfigurationError) {
        let node: StrictJSONReader.Node
        do {
            node = try StrictJSONReader.read(Array(data))
        } catch {
            throw .invalid(path: "\(path):\(error.position)", detail: error.message)
        }
        guard case .object = node else {
            throw .invalid(path: path, detail: "the top level must be a JSON object ({ ... })")
        }
        if let problem = firstUnknownKey(in: node, schema: .configuration, path: "") {
            throw .invalid(path: "\(path):\(problem.position)", detail: problem.message)
        }
    }

    struct UnknownKey {
        var position: StrictJSONReader.Position
        var message: String
    }

    static func firstUnknownKey(
        in node: StrictJSONReader.Node, schema: ConfigurationKeySchema, path: String
    ) -> UnknownKey? {
        switch (node, schema) {
        case (.object(let members), .object(let keys)):
            for member in members {
                let memberPath = path.isEmpty ? member.key : path + "." + member.key
                guard let child = keys[member.key] else {
                    return UnknownKey(position: member.position, message: unknownKeyMessage(member.key, path: path, keys: keys))
                }
                if let problem = firstUnknownKey(in: member.value, schema: child, path: memberPath) { return problem }
            }
            return nil
        case (.array(let elements), .array(let element)):
            for (index, value) in elements.enumerated() {
                if let problem = firstUnknownKey(in: value, schema: element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        default:
            // Wrong kinds of value (a string where an object belongs) are left to the decoder, which names the type.
            return nil
        }
    }

    static func unknownKeyMessage(_ key: String, path: String, keys: [String: ConfigurationKeySchema]) -> String {
        let place = path.isEmpty ? "at the top level" : "in \(path)"
        var message = "unknown key \"\(key)\" \(place)"
        if let suggestion = suggestion(for: key, keys: keys) {
            message += "; did you mean \(suggestion)?"
        } else if let home = ConfigurationKeySchema.configuration.paths(of: key).first {
            message += "; \"\(key)\" belongs \(home == "the top level" ? "at the top level" : "in \(home)")"
        }
        let known = keys.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return message + " (known keys here: \(known))"
    }

    /// A close spelling (edit distance up to a third of the length, case ignored), or `"admin": {"port": ...}` for
    /// a flattened key like `adminPort`.
    static func suggestion(for key: String, keys: [String: ConfigurationKeySchema]) -> String? {
        let lowered = key.lowercased()
        let limit = max(2, key.count / 3)
        var best: (name: String, distance: Int)?
        for name in keys.keys.sorted() {
            let distance = EditDistance.between(lowered, name.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        if let best { return "\"\(best.name)\"" }
        for (name, child) in keys.sorted(by: { $0.key < $1.key }) {
            guard let inner = child.keys, lowered.hasPrefix(name.lowercased()), key.count > name.count else { continue }
            let rest = String(key.dropFirst(name.count))
            let restLowered = rest.prefix(1).lowercased() + rest.dropFirst()
            if let match = inner.keys.first(where: { $0.lowercased() == restLowered.lowercased() }) {
                return "\"\(name)\": {\"\(match)\": ...}"
            }
        }
        return nil
    }
}
