import APNSCore
import SwiftParser
import SwiftSyntax

/// Turns Swift types into `CodableShape`s following the rules of synthesized `Codable` and `JSONDecoder`'s
/// default strategies. Anything it cannot resolve with certainty becomes `.unresolved` plus a problem message;
/// it never guesses. Source: SE-0166 (Codable synthesis), SE-0295 (enums with associated values),
/// A-JSONDEC.
struct ShapeResolver {
    let table: DeclarationTable
    private(set) var problems: [String] = []
    /// Declarations being resolved, to stop on recursive types.
    private var resolving: [String] = []

    init(table: DeclarationTable) {
        self.table = table
    }

    mutating func report(_ position: SourcePosition, _ subject: String, _ message: String) {
        let line = "\(position): \(subject): \(message)"
        if !problems.contains(line) { problems.append(line) }
    }

    // MARK: type syntax

    /// The shape of a written type, looked up from `scope`. `subject`/`position` name the property for problems.
    mutating func shape(of type: TypeSyntax, scope: String, subject: String, position: SourcePosition) -> CodableShape {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return .optional(shape(of: optional.wrappedType, scope: scope, subject: subject, position: position))
        }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return .optional(shape(of: unwrapped.wrappedType, scope: scope, subject: subject, position: position))
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return .array(shape(of: array.element, scope: scope, subject: subject, position: position))
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return dictionaryShape(key: dictionary.key, value: dictionary.value, scope: scope, subject: subject,
                                   position: position, written: type.trimmedDescription)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return shape(of: attributed.baseType, scope: scope, subject: subject, position: position)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), let generics = identifier.genericArgumentClause {
            let arguments = generics.arguments.compactMap { argument -> TypeSyntax? in
                if case .type(let type) = argument.argument { return type }
                return nil
            }
            return genericShape(identifier.name.text, arguments: arguments, scope: scope, subject: subject,
                                position: position, written: type.trimmedDescription)
        }
        if type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) {
            return namedShape(type.trimmedDescription, scope: scope, subject: subject, position: position)
        }
        report(position, subject, "type `\(type.trimmedDescription)` has no fixed JSON form (tuples, existentials and "
            + "function types are not Codable); the mock will not check this field")
        return .unresolved(type.trimmedDescription)
    }

    private mutating func genericShape(
        _ name: String, arguments: [TypeSyntax], scope: String, subject: String, position: SourcePosition,
        written: String
    ) -> CodableShape {
        switch (name, arguments.count) {
        case ("Optional", 1):
            return .optional(shape(of: arguments[0], scope: scope, subject: subject, position: position))
        case ("Array", 1), ("Set", 1), ("ContiguousArray", 1):
            return .array(shape(of: arguments[0], scope: scope, subject: subject, position: position))
        case ("Dictionary", 2):
            return dictionaryShape(key: arguments[0], value: arguments[1], scope: scope, subject: subject,
                                   position: position, written: written)
        default:
            report(position, subject, "generic type `\(written)` is not resolved by the mock; the field is not checked")
            return .unresolved(written)
        }
    }

    private mutating func dictionaryShape(
        key: TypeSyntax, value: TypeSyntax, scope: String, subject: String, position: SourcePosition, written: String
    ) -> CodableShape {
        guard shape(of: key, scope: scope, subject: subject, position: position) == .string else {
            report(position, subject, "`\(written)`: only String-keyed dictionaries are modelled (other keys change "
                + "the JSON form); the field is not checked")
            return .unresolved(written)
        }
        return .dictionary(shape(of: value, scope: scope, subject: subject, position: position))
    }

    /// A plain or dotted name: the app's own types and typealiases first (they shadow the standard library, as in
    /// Swift), then standard-library and Foundation types.
    private mutating func namedShape(
        _ name: String, scope: String, subject: String, position: SourcePosition
    ) -> CodableShape {
        if let qualified = table.qualifiedName(of: name, from: scope) {
            if let alias = table.aliases[qualified], table.types[qualified] == nil {
                return shape(of: alias.target, scope: alias.scope, subject: subject, position: position)
            }
            return shape(ofDeclaration: qualified, subject: subject, position: position)
        }
        if let builtin = CodableShape.builtin(named: name) { return builtin }
        if name == "Character" || name == "Swift.Character" { return .string }
        report(position, subject, "type `\(name)` is not declared in the given files and is not a standard Codable "
            + "type; pass the file that declares it with --activity-source, or the mock will not check this field")
        return .unresolved(name)
    }

    /// Parses a type written as text (used for types inferred from initializer calls such as `Date()`).
    func typeSyntax(_ text: String) -> TypeSyntax {
        var parser = Parser(text)
        return TypeSyntax.parse(from: &parser)
    }

    // MARK: declarations

    /// The shape of a declared struct, class or enum.
    mutating func shape(ofDeclaration qualifiedName: String, subject: String, position: SourcePosition) -> CodableShape {
        guard let declaration = table.types[qualifiedName] else { return .unresolved(qualifiedName) }
        guard !resolving.contains(qualifiedName) else {
            report(position, subject, "`\(qualifiedName)` contains itself; recursive types are not expanded and the "
                + "nested value is not checked")
            return .unresolved(qualifiedName)
        }
        if let decoder = declaration.customDecoder {
            report(decoder, qualifiedName, "has a custom init(from:), so synthesized Decodable rules do not say what it "
                + "reads; the mock will not check values of this type")
            return .unresolved(qualifiedName)
        }
        if declaration.isGeneric {
            report(declaration.position, qualifiedName, "is generic; the mock does not resolve generic types")
            return .unresolved(qualifiedName)
        }
        resolving.append(qualifiedName)
        defer { resolving.removeLast() }
        switch declaration.kind {
        case .enumeration:
            return .enumeration(enumShape(declaration))
        case .protocolType:
            report(position, subject, "`\(qualifiedName)` is a protocol; an existential has no fixed JSON form")
            return .unresolved(qualifiedName)
        case .structure, .classType, .actor:
            return .object(name: declaration.name, fields: fields(of: declaration))
        }
    }
}
