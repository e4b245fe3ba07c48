// libFuzzer entry point for the provider-token parser and the authenticator's cold path. Built by
// scripts/fuzz-token-parser together with the APNSCore sources (no package target needed).
import Foundation

private struct RejectingVerifier: ES256Verifier {
    var publicKeyFingerprint: String { "fuzz" }
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool { signature.count == 64 }
}

private let registry: SigningKeyRegistry = {
    let registry = SigningKeyRegistry()
    registry.register(try! SigningKey(teamID: "TEAM123456", keyID: "ABC123DEFG", verifier: RejectingVerifier()))
    try! registry.addBundleID("com.example.app", toTeam: "TEAM123456")
    return registry
}()
private let cache = VerifiedTokenCache(capacity: 64)

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzProviderToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ProviderToken(parsing: text[...])
    _ = JWTBase64.decode(text[...])
    let authenticator = ProviderTokenAuthenticator(registry: registry, cache: cache)
    for value in [text, "bearer " + text] {
        _ = authenticator.authenticate(AuthRequest(
            authorization: [value], topic: "com.example.app", pushType: .alert, environment: .development,
            now: Timestamp(secondsSinceEpoch: 1_800_000_000)))
    }
    return 0
}
