/// Values many records repeat (header names, the topic, the user agent, the provider token's texts, a warning's
/// message, TLS facts), kept once and referred to by number from `PackedDeliveryRecord`. Bounded: past `capacity`
/// values `intern` returns nil and the caller writes the value out (or keeps the record whole), so a field with a
/// new value per push costs the pool nothing more once it is full. Append-only: a number handed out stays valid for
/// the pool's life (the store starts a new pool on reset), so a copy of the pool taken under the store's lock
/// decodes every record packed before the copy.
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
}
