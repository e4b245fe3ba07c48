import APNSLiveActivity

/// APNSCore and APNSLiveActivity both declare a `JSONValue`; these tests mean the Live Activity one (it keeps
/// object members in order, which the decode checks report).
typealias JSONValue = APNSLiveActivity.JSONValue
