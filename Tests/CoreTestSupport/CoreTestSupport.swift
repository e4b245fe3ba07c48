import APNSCore

// Helpers shared by the core and crypto tests.

/// Base64url of UTF-8 text, for building JWT segments by hand.
package func base64URL(_ text: String) -> String { JWTBase64.encodeURL(Array(text.utf8)) }
