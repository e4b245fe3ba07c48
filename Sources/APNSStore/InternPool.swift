/// Values many records repeat (header names, the topic, the user agent, the provider token's texts, a warning's
/// message, TLS facts), kept once and referred to by number from `PackedDeliveryRecord`. Bounded: past `capacity`
/// values, or for a value `admits` refuses, `intern` returns nil and the caller stores the value itself, so a
/// field with a new value per push (a token, an id) costs the pool nothing once it is full. Append-only: a number
/// handed out stays valid until `removeAll`, so a copy of the pool taken under the store's lock decodes every
/// record packed before the copy.
struct InternPool<Value: Hashable & Sendable>: Sendable {
    private(set) var values: [Value] = []
    private var numbers: [Value: Int] = [:]
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value's number, adding it when there is room; nil when the pool is full and does not hold it.
    mutating func intern(_ value: Value) -> Int? {
        if let number = numbers[value] { return number }
        guard values.count < capacity else { return nil }
        numbers[value] = values.count
        values.append(value)
        return values.count - 1
    }

    /// The value numbered `number`; nil for a number this pool never handed out.
    func value(_ number: Int) -> Value? {
        values.indices.contains(number) ? values[number] : nil
    }

    var count: Int { values.count }

    mutating func removeAll() {
        values = []
        numbers = [:]
    }
}
