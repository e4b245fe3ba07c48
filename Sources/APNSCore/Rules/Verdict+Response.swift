import Foundation

extension Verdict {
    /// The HTTP response for this verdict.
    ///
    /// 200: headers only (`apns-id`, then `apns-unique-id` when given). Errors: `content-type: application/json`,
    /// `apns-id`, `apns-unique-id` when given, and the body `{"reason":"…"}` with an integer `timestamp` on 410 only.
    /// Source: A-RESP (success and error samples, error body keys), A-RESP.
    ///
    /// - Parameters:
    ///   - apnsID: usually `ApnsID.resolve(requestValue: verdict.apnsID)`.
    ///   - uniqueID: `ApnsID.newUniqueID()` in the development environment, else nil.
    public func response(apnsID: String, uniqueID: String?) -> HTTPResponse {
        var headers: [HeaderField] = []
        var body: [UInt8] = []
        if status != 200 {
            headers.append(HeaderField("content-type", "application/json"))
            let errorBody = ErrorBody(
                reason: wireReason ?? "",
                timestamp: status == 410 ? timestamp : nil)
            body = Verdict.encode(errorBody)
        }
        headers.append(HeaderField("apns-id", apnsID))
        if let uniqueID {
            headers.append(HeaderField("apns-unique-id", uniqueID))
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    private static func encode(_ body: ErrorBody) -> [UInt8] {
        body.jsonBytes
    }
}
