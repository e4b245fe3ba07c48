/// What the app's `ActivityAttributes` type looks like to `JSONDecoder`: the `attributes-type` name, the static
/// attributes (`aps.attributes` on push-to-start) and the `ContentState` fields (`aps.content-state`).
/// Source: A-LA (push payload keys), A-GEN.
public struct ActivitySchema: Sendable, Hashable {
    /// The Swift type name, which is what `aps.attributes-type` must carry.
    public var attributesType: String
    /// Stored properties of the attributes type itself.
    public var attributes: [SchemaField]
    /// Fields of its `ContentState`.
    public var contentState: [SchemaField]
    /// The name `ContentState` resolved to (`ContentState`, or the target of `typealias ContentState = State`).
    public var contentStateType: String
    /// Where the type was declared (`path:line`), when derived from source.
    public var source: String?
    /// False when the attributes type could not be resolved (e.g. a custom `init(from:)`): `attributes` are then
    /// not checked.
    public var attributesChecked: Bool
    /// False when `ContentState` could not be resolved: `content-state` is then not checked.
    public var contentStateChecked: Bool

    public init(
        attributesType: String, attributes: [SchemaField], contentState: [SchemaField],
        contentStateType: String = "ContentState", source: String? = nil, attributesChecked: Bool = true,
        contentStateChecked: Bool = true
    ) {
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.contentStateType = contentStateType
        self.source = source
        self.attributesChecked = attributesChecked
        self.contentStateChecked = contentStateChecked
    }
}
