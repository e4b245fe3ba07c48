import CNative

/// The name/value pairs of one header block to submit, in storage its owner keeps from one block to the next:
/// names and values are copied into one byte buffer, and the `nghttp2_nv` entries over it are made in a second
/// array. nghttp2's submit functions copy what they are given, so the buffer may be refilled as soon as
/// `withNameValues` returns; after a connection's first responses, a header block costs no allocation.
public struct NameValueBuffer {
    @usableFromInline
    var bytes: [UInt8] = []
    /// Where each pair's name and value sit in `bytes`.
    @usableFromInline
    var spans: [(nameStart: Int, nameCount: Int, valueStart: Int, valueCount: Int, flags: UInt8)] = []
    @usableFromInline
    var entries: [nghttp2_nv] = []
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
        appendUTF8(of: name)
        endName()
        appendValue(value)
    }

    /// Adds a pair whose name is lower-cased as it is copied (HTTP/2 field names are lower case): ASCII letters
    /// byte by byte, a name with other characters by `lowercased()`. `indexed: false` asks the HPACK encoder not to
    /// add the pair to its dynamic table (`NGHTTP2_NV_FLAG_NO_INDEX`): for values that name one response, which
    /// would never be referred to again and each cost the encoder an allocated table entry.
    public mutating func append(lowercasingName name: String, value: String, indexed: Bool = true) {
        beginName()
        // The usual name is lower-case ASCII already (the application's own constants): copied in one piece.
        let copied = name.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) })
            else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true {
            var ascii = true
            for byte in name.utf8 {
                if byte >= 0x80 { ascii = false; break }
                bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            }
            if !ascii {
                bytes.removeLast(bytes.count - pendingName.start)
                bytes.append(contentsOf: name.lowercased().utf8)
            }
        }
        endName()
        appendValue(value, indexed: indexed)
    }

    /// Adds a pair whose value is an integer in decimal (`:status`, `content-length`), its digits written in place
    /// (no `String` made for them).
    public mutating func append(name: String, decimal value: Int) {
        beginName()
        bytes.append(contentsOf: name.utf8)
        endName()
        let start = bytes.count
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let digitsStart = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        // Reversed in place by index (reversing a slice of the array would copy its storage).
        var low = digitsStart
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
        spans.append((pendingName.start, pendingName.count, start, bytes.count - start, UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
    }

    private mutating func beginName() { pendingName = (bytes.count, 0) }
    private mutating func endName() { pendingName.count = bytes.count - pendingName.start }

    /// Copies a string's UTF-8 bytes in one piece (its contiguous storage; a bridged string byte by byte).
    private mutating func appendUTF8(of text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes.append(contentsOf: text.utf8) }
    }

    private mutating func appendValue(_ value: String, indexed: Bool = true) {
        let start = bytes.count
        appendUTF8(of: value)
        let flags = indexed ? NGHTTP2_NV_FLAG_NONE.rawValue : NGHTTP2_NV_FLAG_NO_INDEX.rawValue
        spans.append((pendingName.start, pendingName.count, start, bytes.count - start, UInt8(flags)))
    }

    /// Runs `body` with the `nghttp2_nv` entries of every pair, in the order added (valid only inside `body`).
    /// Inlinable, so that each caller gets it specialized for its result (no generic call per header block).
    @inlinable
    public mutating func withNameValues<R>(_ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> R) -> R {
        if bytes.isEmpty { bytes.reserveCapacity(1) }  // a base address even for empty names and values
        var entries = [nghttp2_nv]()
        swap(&entries, &self.entries)
        defer { swap(&entries, &self.entries) }
        entries.removeAll(keepingCapacity: true)
        let spans = spans
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
