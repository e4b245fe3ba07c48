import HTTPContract

/// Random (version 4) UUIDs in canonical text, made without opening a file or entering the kernel per id:
/// Foundation's `UUID()` on Linux opened `/dev/urandom` for each one, twice per push. A xoshiro256** generator,
/// seeded once from the system generator (getrandom(2) on Linux), makes the 122 random bits. The ids must be
/// unique, not secret: they name responses and records and protect nothing.
public enum RandomUUID {
    private static let generator = Locked(Xoshiro256StarStar(seed: SystemRandomNumberGenerator()))

    /// A new random UUID, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (or lower-case).
    public static func make(uppercase: Bool) -> String {
        let (high, low) = generator.withLock { ($0.next(), $0.next()) }
        return text(high: high, low: low, uppercase: uppercase)
    }

    /// `make(uppercase:)` and the UUID's bits as `CanonicalUUID.parse` would read them from the text, so that a
    /// store keeps the 16 bytes without reading the text back.
    public static func makeWithBits(uppercase: Bool) -> (text: String, bits: CanonicalUUID.Bits) {
        let (random1, random2) = generator.withLock { ($0.next(), $0.next()) }
        let (high, low) = versioned(high: random1, low: random2)
        return (
            CanonicalUUID.text(high: high, low: low, uppercase: uppercase),
            CanonicalUUID.Bits.ofText(high: high, low: low, uppercase: uppercase)
        )
    }

    /// The 8-4-4-4-12 text of 128 bits with the version (4) and variant (10xx) bits set (RFC 9562 §5.4).
    static func text(high: UInt64, low: UInt64, uppercase: Bool) -> String {
        let (high, low) = versioned(high: high, low: low)
        return CanonicalUUID.text(high: high, low: low, uppercase: uppercase)
    }

    /// The bits with the version (4) and variant (10xx) set.
    @inline(__always)
    static func versioned(high: UInt64, low: UInt64) -> (high: UInt64, low: UInt64) {
        ((high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000, (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000)
    }
}

/// xoshiro256** (Blackman and Vigna): fast, 256 bits of state, statistically strong; not cryptographic.
struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64

    init(seed source: some RandomNumberGenerator) {
        var source = source
        repeat {
            (s0, s1, s2, s3) = (source.next(), source.next(), source.next(), source.next())
        } while s0 | s1 | s2 | s3 == 0
    }

    mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotate(s3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
