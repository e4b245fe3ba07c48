import APNSCore
import SwiftSyntax

extension ShapeResolver {
    /// An enum's JSON form: raw values when it has a raw type (String cases default to their name, integer cases
    /// count up from the previous one), else `{"case": {associated values}}` (SE-0295: unlabelled values are
    /// keyed `_0`, `_1`, …).
    mutating func enumShape(_ declaration: TypeDeclaration) -> EnumShape {
        let rawType = declaration.inherited.first.flatMap { name -> CodableShape? in
            if name == "Character" { return .string }
            switch CodableShape.builtin(named: name) {
            case .string?, .integer?, .float?: return CodableShape.builtin(named: name)
            default: return nil
            }
        }
        var cases: [EnumCase] = []
        var nextInteger: Int64 = 0
        for declared in declaration.cases {
            let subject = "\(declaration.qualifiedName).\(declared.name)"
            switch rawType {
            case .string?:
                let raw = declared.rawValue.flatMap(Self.stringLiteral) ?? declared.name
                cases.append(EnumCase(name: declared.name, rawValue: raw))
            case .integer?:
                if let written = declared.rawValue.flatMap(Self.integerLiteral) { nextInteger = written }
                cases.append(EnumCase(name: declared.name, rawValue: String(nextInteger)))
                nextInteger += 1
            case .float?:
                let raw = declared.rawValue.map { $0.trimmedDescription.replacingUnderscores }
                    ?? String(nextInteger)
                cases.append(EnumCase(name: declared.name, rawValue: raw))
                nextInteger = (Double(raw).map { Int64($0) } ?? nextInteger) + 1
            default:
                let values = declared.associatedValues.enumerated().map { index, value in
                    SchemaField(
                        key: value.label ?? "_\(index)",
                        shape: shape(of: value.type, scope: declaration.qualifiedName, subject: subject,
                                     position: declared.position))
                }
                cases.append(EnumCase(name: declared.name, associatedValues: values))
            }
        }
        return EnumShape(name: declaration.name, rawType: rawType, cases: cases)
    }

    static func integerLiteral(_ expression: ExprSyntax) -> Int64? {
        if let literal = expression.as(IntegerLiteralExprSyntax.self) {
            return Int64(literal.literal.text.replacingUnderscores)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           let value = integerLiteral(prefix.expression) {
            return -value
        }
        return nil
    }
}

extension String {
    var replacingUnderscores: String { filter { $0 != "_" } }
}
