import SwiftSyntax

/// Where something was declared, for problem messages.
struct SourcePosition: CustomStringConvertible {
    var file: String
    var line: Int
    var description: String { "\(file):\(line)" }
}

/// A stored or computed property as written (computed and static ones are dropped while collecting).
struct PropertyDeclaration {
    var name: String
    var type: TypeSyntax?
    var initializer: ExprSyntax?
    var isLet: Bool
    var isLazy: Bool
    /// `@Something` written on the property (a property wrapper changes how it is coded).
    var wrapperAttribute: String?
    var position: SourcePosition
}

/// One enum case as written.
struct EnumCaseDeclaration {
    var name: String
    var rawValue: ExprSyntax?
    /// Associated values: label (nil when unlabelled) and type.
    var associatedValues: [(label: String?, type: TypeSyntax)]
    var position: SourcePosition
}

/// `typealias Name = Target`, with the scope the target is looked up in.
struct AliasDeclaration {
    var target: TypeSyntax
    var scope: String
    var position: SourcePosition
}

/// A struct, class, actor, enum or protocol, merged with every extension of it found in the given files.
struct TypeDeclaration {
    enum Kind {
        case structure, classType, actor, enumeration, protocolType
    }

    var kind: Kind
    var name: String
    var qualifiedName: String
    /// Names in the inheritance clauses of the declaration and its extensions, as written.
    var inherited: [String] = []
    var properties: [PropertyDeclaration] = []
    var cases: [EnumCaseDeclaration] = []
    /// `init(from:)` declared: synthesized `Decodable` rules no longer say what is read.
    var customDecoder: SourcePosition?
    var isGeneric = false
    var position: SourcePosition
}

/// Every type and typealias declared in the parsed files, by qualified name (`Outer.Inner`; extensions use the
/// name they extend, as written).
struct DeclarationTable {
    var types: [String: TypeDeclaration] = [:]
    var aliases: [String: AliasDeclaration] = [:]
    /// Qualified names in the order their declarations were met, so results are stable.
    var order: [String] = []
    /// Inheritance clauses of extensions whose type is declared elsewhere or later, merged at the end.
    var pendingExtensions: [(name: String, inherited: [String], customDecoder: SourcePosition?)] = []

    /// Looks `name` (possibly dotted) up from `scope` outwards, as Swift's lexical lookup does:
    /// `Scope.Inner.name`, `Scope.name`, `name`.
    func qualifiedName(of name: String, from scope: String) -> String? {
        var prefix = scope
        while true {
            let candidate = prefix.isEmpty ? name : "\(prefix).\(name)"
            if types[candidate] != nil || aliases[candidate] != nil { return candidate }
            guard !prefix.isEmpty else { return nil }
            prefix = prefix.split(separator: ".").dropLast().joined(separator: ".")
        }
    }

    mutating func mergePendingExtensions() {
        for pending in pendingExtensions {
            let key = types[pending.name] != nil ? pending.name : qualifiedName(of: pending.name, from: "")
            guard let key, types[key] != nil else { continue }
            types[key]!.inherited += pending.inherited
            if types[key]!.customDecoder == nil { types[key]!.customDecoder = pending.customDecoder }
        }
        pendingExtensions = []
    }
}
