import APNSCore
import SwiftSyntax

extension ShapeResolver {
    /// The fields synthesized `Decodable` reads, in declaration order:
    /// - with a `CodingKeys` enum: exactly the properties it lists, under its raw values;
    /// - without: every stored property except a `let` that has an initial value;
    /// - `var x = value` is still read and its key still required (defaults are ignored by synthesized init);
    /// - optionals may be absent or null (`decodeIfPresent`).
    /// Source: SE-0166; A-JSONDEC.
    mutating func fields(of declaration: TypeDeclaration) -> [SchemaField] {
        let codingKeys = codingKeyMap(of: declaration)
        var fields: [SchemaField] = []
        for property in declaration.properties {
            let subject = "\(declaration.qualifiedName).\(property.name)"
            let key: String
            if let codingKeys {
                guard let mapped = codingKeys[property.name] else { continue }
                key = mapped
            } else {
                if property.isLet, property.initializer != nil { continue }
                key = property.name
            }
            if property.isLazy {
                report(property.position, subject, "lazy properties are not modelled; this key is not checked")
                continue
            }
            if let wrapper = property.wrapperAttribute {
                report(property.position, subject, "property wrapper @\(wrapper) is coded in the wrapper's own form; "
                    + "the mock accepts any value for this key")
                fields.append(SchemaField(key: key, property: property.name, shape: .optional(.unresolved("@\(wrapper)"))))
                continue
            }
            let shape: CodableShape
            if let type = property.type {
                shape = self.shape(of: type, scope: declaration.qualifiedName, subject: subject, position: property.position)
            } else if let initializer = property.initializer,
                      let inferred = inferredShape(initializer, scope: declaration.qualifiedName, subject: subject,
                                                   position: property.position) {
                shape = inferred
            } else {
                report(property.position, subject, "cannot tell the type from the default value "
                    + "`\(property.initializer?.trimmedDescription ?? "")`; add a type annotation. Not checked")
                shape = .unresolved(property.initializer?.trimmedDescription ?? "?")
            }
            fields.append(SchemaField(key: key, property: property.name, shape: shape))
        }
        return fields
    }

    /// Property name → JSON key from a nested `enum CodingKeys: String, CodingKey`, or nil without one.
    private func codingKeyMap(of declaration: TypeDeclaration) -> [String: String]? {
        guard let keys = table.types["\(declaration.qualifiedName).CodingKeys"], keys.kind == .enumeration else {
            return nil
        }
        var map: [String: String] = [:]
        for keyCase in keys.cases {
            map[keyCase.name] = keyCase.rawValue.flatMap(Self.stringLiteral) ?? keyCase.name
        }
        return map
    }

    /// The type of `var x = <initializer>` when Swift's inference is evident from the expression: literals,
    /// `Type(...)` calls, `Date.now`, arrays of one literal kind.
    mutating func inferredShape(
        _ expression: ExprSyntax, scope: String, subject: String, position: SourcePosition
    ) -> CodableShape? {
        if expression.is(IntegerLiteralExprSyntax.self) { return .integer(.int) }
        if expression.is(FloatLiteralExprSyntax.self) { return .float(.double) }
        if expression.is(StringLiteralExprSyntax.self) { return .string }
        if expression.is(BooleanLiteralExprSyntax.self) { return .bool }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self) {
            return inferredShape(prefix.expression, scope: scope, subject: subject, position: position)
        }
        if let unwrapped = expression.as(ForceUnwrapExprSyntax.self),
           let inner = inferredShape(unwrapped.expression, scope: scope, subject: subject, position: position) {
            if case .optional(let wrapped) = inner { return wrapped }
            return inner
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let callee = call.calledExpression.trimmedDescription
            guard callee.first?.isUppercase == true, !callee.contains("(") else { return nil }
            let type = shape(of: typeSyntax(callee), scope: scope, subject: subject, position: position)
            let labels = call.arguments.map { $0.label?.text }
            if type == .url, labels == ["string"] { return .optional(.url) }
            return type
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.trimmedDescription,
           ["Date", "Foundation.Date"].contains(base),
           ["now", "distantPast", "distantFuture"].contains(member.declName.baseName.text) {
            return .date
        }
        if let array = expression.as(ArrayExprSyntax.self), !array.elements.isEmpty {
            let shapes = array.elements.map { inferredShape($0.expression, scope: scope, subject: subject, position: position) }
            guard let firstShape = shapes[0], shapes.allSatisfy({ $0 == firstShape }) else { return nil }
            return .array(firstShape)
        }
        return nil
    }

    /// The text of a string literal without interpolation.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }
}
