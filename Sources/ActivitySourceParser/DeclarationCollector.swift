import SwiftSyntax

/// Walks one file and records its type declarations, extensions, typealiases, stored properties and enum cases
/// into a shared `DeclarationTable`. Function bodies and property accessors are not entered: types declared
/// there are local and cannot be an activity's fields.
final class DeclarationCollector: SyntaxVisitor {
    private(set) var table: DeclarationTable
    private let file: String
    private let converter: SourceLocationConverter
    private var scopes: [String] = []

    init(file: String, tree: SourceFileSyntax, table: DeclarationTable) {
        self.file = file
        self.converter = SourceLocationConverter(fileName: file, tree: tree)
        self.table = table
        super.init(viewMode: .sourceAccurate)
    }

    private var scope: String { scopes.last ?? "" }

    private func position(_ node: some SyntaxProtocol) -> SourcePosition {
        SourcePosition(file: file, line: node.startLocation(converter: converter).line)
    }

    private func qualified(_ name: String) -> String {
        scope.isEmpty ? name : "\(scope).\(name)"
    }

    // MARK: declarations

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.structure, name: node.name.text, inheritance: node.inheritanceClause,
              isGeneric: node.genericParameterClause != nil, members: node.memberBlock, node: node)
    }

    override func visitPost(_ node: StructDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.classType, name: node.name.text, inheritance: node.inheritanceClause,
              isGeneric: node.genericParameterClause != nil, members: node.memberBlock, node: node)
    }

    override func visitPost(_ node: ClassDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.actor, name: node.name.text, inheritance: node.inheritanceClause,
              isGeneric: node.genericParameterClause != nil, members: node.memberBlock, node: node)
    }

    override func visitPost(_ node: ActorDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.enumeration, name: node.name.text, inheritance: node.inheritanceClause,
              isGeneric: node.genericParameterClause != nil, members: node.memberBlock, node: node)
    }

    override func visitPost(_ node: EnumDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.protocolType, name: node.name.text, inheritance: node.inheritanceClause,
              isGeneric: false, members: node.memberBlock, node: node)
    }

    override func visitPost(_ node: ProtocolDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.extendedType.trimmedDescription
        let members = flattened(node.memberBlock)
        let inherited = inheritedNames(node.inheritanceClause)
        let decoder = customDecoder(in: members)
        if table.types[name] != nil {
            table.types[name]!.inherited += inherited
            if table.types[name]!.customDecoder == nil { table.types[name]!.customDecoder = decoder }
        } else {
            table.pendingExtensions.append((name, inherited, decoder))
        }
        scopes.append(name)
        recordAliases(members)
        return .visitChildren
    }

    override func visitPost(_ node: ExtensionDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if scope.isEmpty {
            table.aliases[node.name.text] = AliasDeclaration(
                target: node.initializer.value, scope: "", position: position(node))
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: members

    private func enter(
        _ kind: TypeDeclaration.Kind, name: String, inheritance: InheritanceClauseSyntax?, isGeneric: Bool,
        members memberBlock: MemberBlockSyntax, node: some SyntaxProtocol
    ) -> SyntaxVisitorContinueKind {
        let qualifiedName = qualified(name)
        let members = flattened(memberBlock)
        var declaration = table.types[qualifiedName] ?? TypeDeclaration(
            kind: kind, name: name, qualifiedName: qualifiedName, position: position(node))
        declaration.kind = kind
        declaration.position = position(node)
        declaration.isGeneric = isGeneric
        declaration.inherited += inheritedNames(inheritance)
        declaration.properties += members.compactMap { $0.as(VariableDeclSyntax.self) }.flatMap(storedProperties)
        declaration.cases += members.compactMap { $0.as(EnumCaseDeclSyntax.self) }.flatMap(enumCases)
        declaration.customDecoder = declaration.customDecoder ?? customDecoder(in: members)
        if table.types[qualifiedName] == nil { table.order.append(qualifiedName) }
        table.types[qualifiedName] = declaration
        scopes.append(qualifiedName)
        recordAliases(members)
        return .visitChildren
    }

    /// Members, with the clauses of `#if` blocks read as if every condition held.
    private func flattened(_ memberBlock: MemberBlockSyntax) -> [DeclSyntax] {
        flattened(memberBlock.members)
    }

    private func flattened(_ list: MemberBlockItemListSyntax) -> [DeclSyntax] {
        list.flatMap { item -> [DeclSyntax] in
            guard let conditional = item.decl.as(IfConfigDeclSyntax.self) else { return [item.decl] }
            return conditional.clauses.flatMap { clause -> [DeclSyntax] in
                guard case .decls(let nested) = clause.elements else { return [] }
                return flattened(nested)
            }
        }
    }

    private func recordAliases(_ members: [DeclSyntax]) {
        for alias in members.compactMap({ $0.as(TypeAliasDeclSyntax.self) }) {
            table.aliases[qualified(alias.name.text)] = AliasDeclaration(
                target: alias.initializer.value, scope: scope, position: position(alias))
        }
    }

    private func inheritedNames(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    }

    private func customDecoder(in members: [DeclSyntax]) -> SourcePosition? {
        for initializer in members.compactMap({ $0.as(InitializerDeclSyntax.self) }) {
            let labels = initializer.signature.parameterClause.parameters.map(\.firstName.text)
            if labels == ["from"] { return position(initializer) }
        }
        return nil
    }

    /// Stored instance properties: `static`/`class` ones and computed ones (a getter, or get/set accessors) are not
    /// coded and are dropped here. Source: Swift Codable synthesis (SE-0166).
    private func storedProperties(_ variable: VariableDeclSyntax) -> [PropertyDeclaration] {
        let modifiers = Set(variable.modifiers.map(\.name.text))
        guard modifiers.isDisjoint(with: ["static", "class"]) else { return [] }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let wrapper = variable.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }.first
        var properties: [PropertyDeclaration] = []
        var pendingUntyped: [Int] = []
        for binding in variable.bindings {
            if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            let property = PropertyDeclaration(
                name: identifier.identifier.text.trimmingCharacters(in: "`"),
                type: binding.typeAnnotation?.type, initializer: binding.initializer?.value, isLet: isLet,
                isLazy: modifiers.contains("lazy"), wrapperAttribute: wrapper, position: position(binding))
            properties.append(property)
            if property.type == nil, property.initializer == nil {
                pendingUntyped.append(properties.count - 1)
            } else if let type = property.type {
                // `var a, b: Int`: the annotation applies to the earlier untyped names too.
                for index in pendingUntyped { properties[index].type = type }
                pendingUntyped = []
            }
        }
        return properties
    }

    private func isComputed(_ accessors: AccessorBlockSyntax) -> Bool {
        switch accessors.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { !["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }

    private func enumCases(_ declaration: EnumCaseDeclSyntax) -> [EnumCaseDeclaration] {
        declaration.elements.map { element in
            EnumCaseDeclaration(
                name: element.name.text.trimmingCharacters(in: "`"),
                rawValue: element.rawValue?.value,
                associatedValues: element.parameterClause?.parameters.map {
                    (label: $0.firstName.flatMap { $0.text == "_" ? nil : $0.text }, type: $0.type)
                } ?? [],
                position: position(element))
        }
    }
}

extension String {
    func trimmingCharacters(in character: Character) -> String {
        String(drop(while: { $0 == character }).reversed().drop(while: { $0 == character }).reversed())
    }
}
