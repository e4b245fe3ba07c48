import APNSCore

/// Base64url of UTF-8 text, for building JWT segments by hand.
func base64URL(_ text: String) -> String { JWTBase64.encodeURL(Array(text.utf8)) }
