import APNSCore

/// Shared test data: one app schema, the test clock's start time, and payload builders.
enum TestPayloads {
    /// 2026-01-01T00:00:00Z, the `TestClock` default.
    static let now = Timestamp(secondsSinceEpoch: 1_767_225_600)
    static let nowSeconds = 1_767_225_600
    /// `now` as seconds since 2001, what a correct `Date` in content-state carries.
    static let etaReference = 1_767_225_600 - 978_307_200 + 1800

    static let delivery = ActivitySchema(
        attributesType: "DeliveryAttributes",
        attributes: [SchemaField(key: "orderID", shape: .string), SchemaField(key: "createdAt", shape: .optional(.date))],
        contentState: [
            SchemaField(key: "progress", shape: .float(.double)), SchemaField(key: "eta", shape: .date),
            SchemaField(key: "note", shape: .optional(.string)),
        ])
    static let workout = ActivitySchema(
        attributesType: "WorkoutAttributes", attributes: [SchemaField(key: "athlete", shape: .string)],
        contentState: [SchemaField(key: "heartRate", shape: .integer(.uint8))])

    static let state = #"{"progress":0.5,"eta":\#(etaReference)}"#

    /// An update; `extra` is spliced into `aps` (start it with a comma).
    static func update(timestamp: Int = nowSeconds, state: String = state, extra: String = "") -> String {
        #"{"aps":{"event":"update","timestamp":\#(timestamp),"content-state":\#(state)\#(extra)}}"#
    }

    static func end(timestamp: Int = nowSeconds, extra: String = "") -> String {
        #"{"aps":{"event":"end","timestamp":\#(timestamp),"content-state":\#(state)\#(extra)}}"#
    }

    static func start(
        timestamp: Int = nowSeconds, type: String = "DeliveryAttributes", attributes: String = #"{"orderID":"A1"}"#,
        state: String = state, alert: Bool = true, extra: String = ""
    ) -> String {
        let alertText = alert ? #","alert":{"title":"Order","body":"On its way"}"# : ""
        return #"{"aps":{"event":"start","timestamp":\#(timestamp),"attributes-type":"\#(type)","attributes":\#(attributes),"#
            + #""content-state":\#(state)\#(alertText)\#(extra)}}"#
    }
}
