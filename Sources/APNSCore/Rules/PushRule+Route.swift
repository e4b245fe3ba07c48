extension PushRule {
    /// `:path` must be `/3/device/<token>` (or `/3/device` without a token, answered by
    /// `route.device-token-present`); anything else is `404 BadPath`.
    ///
    /// Source: A-RESP (`BadPath`: "The request contained an invalid :path value"), A-SEND. Which
    /// wrong paths give 404 rather than 405 is unknown; like APNSwift's test server, a wrong path wins over a wrong
    /// method. A token followed by more path segments (`/3/device/abc/x`) is a wrong path (choice).
    public static let routePath = PushRule(id: "route.path") { evaluation in
        let path = evaluation.request.path
        if path == "/3/device" { return nil }
        // A token of hex digits only (the usual one, counted once for `token.format` too) has no '/'.
        guard let token = evaluation.facts.deviceToken,
            evaluation.deviceTokenHexScan().stop == nil || !ByteScan.contains(UInt8(ascii: "/"), in: token.utf8.span)
        else {
            return RuleRejection(.badPath, "the path must be /3/device/<hex device token>; got \(path)")
        }
        return nil
    }

    /// `:method` must be `POST`, else `405 MethodNotAllowed`.
    ///
    /// Source: A-RESP ("The specified :method value isn't POST"), A-SEND.
    public static let routeMethod = PushRule(id: "route.method") { evaluation in
        let method = evaluation.request.method
        guard method == "POST" else {
            return RuleRejection(.methodNotAllowed, "device pushes must use :method POST; got \(method)")
        }
        return nil
    }

    /// `/3/device/` (or `/3/device`) without a token is `400 MissingDeviceToken`.
    ///
    /// Source: A-RESP ("The device token isn't specified in the request :path"); APNSwift's test server answers the
    /// same for `/3/device`; A-SEND.
    public static let routeDeviceTokenPresent = PushRule(id: "route.device-token-present") { evaluation in
        guard let token = evaluation.facts.deviceToken, !token.isEmpty else {
            return RuleRejection(
                .missingDeviceToken, "the path must end with the device token: /3/device/<hex device token>")
        }
        return nil
    }
}
