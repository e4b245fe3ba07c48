import CNative

/// The name/value pairs of one header block to submit, in storage its owner keeps from one block to the next:
/// names and values are copied into one byte buffer, and the `nghttp2_nv` entries over it are made in a second
/// array. nghttp2's submit functions copy what they are given, so the buffer may be refilled as soon as
/// `withNameValues` returns; after a connection's first responses, a header block costs no allocation.
public struct NameValueBuffer {
    private var bytes: [UInt8] = []
    /// Where each pair's name and value sit in `bytes`.
    private var spans: [(nameStart: Int, nameCount: Int, valueStart: Int, valueCount: Int, flags: UInt8)] = []
    private var entries: [nghttp2_nv] = []
    /// Start and length in `bytes` of the name of the pair being added.
    private var pendingName = (start: 0, count: 0)

    public init() {}

    /// The pairs added since the last `removeAll`.
    public var count: Int { spans.count }

    /// Forgets every pair, keeping the storage.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Adds a pair.
    public mutating func append(name: String, value: String) {
        beginName()
        bytes.append(contentsOf: name.utf8)
        endName()
        appendValue(value)
    }

    /// Adds a pair whose name is lower-cased as it is copied (HTTP/2 field names are lower case): ASCII letters
    /// byte by byte, a name with other characters by `lowercased()`. `indexed: false` asks the HPACK encoder not to
    /// add the pair to its dynamic table (`NGHTTP2_NV_FLAG_NO_INDEX`): for values that name one response, which
    /// would never be referred to again and each cost the encoder an allocated table entry.
    public mutating func append(lowercasingName name: String, value: String, indexed: Bool = true) {
        beginName()
        var ascii = true
        for byte in name.utf8 {
            if byte >= 0x80 { ascii = false; break }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        if !ascii {
            bytes.removeLast(bytes.count - pendingName.start)
            bytes.append(contentsOf: name.lowercased().utf8)
        }
        endName()
        appendValue(value, indexed: indexed)
    }

    /// Adds a pair whose value is an integer in decimal (`:status`, `content-length`; a small string, no allocation).
    public mutating func append(name: String, decimal value: Int) {
        append(name: name, value: String(value))
    }

    private mutating func beginName() { pendingName = (bytes.count, 0) }
    private mutating func endName() { pendingName.count = bytes.count - pendingName.start }

    private mutating func appendValue(_ value: String, indexed: Bool = true) {
        let start = bytes.count
        bytes.append(contentsOf: value.utf8)
        let flags = indexed ? NGHTTP2_NV_FLAG_NONE.rawValue : NGHTTP2_NV_FLAG_NO_INDEX.rawValue
        spans.append((pendingName.start, pendingName.count, start, bytes.count - start, UInt8(flags)))
    }

    /// Runs `body` with the `nghttp2_nv` entries of every pair, in the order added (valid only inside `body`).
    public mutating func withNameValues<R>(_ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> R) -> R {
        if bytes.isEmpty { bytes.reserveCapacity(1) }  // a base address even for empty names and values
        var entries = [nghttp2_nv]()
        swap(&entries, &self.entries)
        defer { swap(&entries, &self.entries) }
        entries.removeAll(keepingCapacity: true)
        return bytes.withUnsafeMutableBufferPointer { storage in
            let base = storage.baseAddress!
            for span in spans {
                entries.append(nghttp2_nv(
                    name: base + span.nameStart, value: base + span.valueStart, namelen: span.nameCount,
                    valuelen: span.valueCount, flags: span.flags))
            }
            return entries.withUnsafeMutableBufferPointer { body($0) }
        }
    }
}
