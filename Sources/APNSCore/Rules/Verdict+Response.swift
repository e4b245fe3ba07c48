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
        // Each header array is built at its final size (one allocation); APNs' own rejections without a timestamp
        // share their reason's body bytes (`Reason.errorBodyBytes`).
        let status = status
        let id = HeaderField("apns-id", apnsID)
        guard status != 200 else {
            let headers = uniqueID.map { [id, HeaderField("apns-unique-id", $0)] } ?? [id]
            return HTTPResponse(status: status, headers: headers, body: [])
        }
        let contentType = HeaderField("content-type", "application/json")
        let headers = uniqueID.map { [contentType, id, HeaderField("apns-unique-id", $0)] } ?? [contentType, id]
        let body: [UInt8]
        if case .rejected(let rejection, _) = self, rejection.timestamp == nil {
            body = rejection.reason.errorBodyBytes
        } else {
            body = Verdict.encode(ErrorBody(reason: wireReason ?? "", timestamp: status == 410 ? timestamp : nil))
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    private static func encode(_ body: ErrorBody) -> [UInt8] {
        body.jsonBytes
    }
}
