import APNSJSON
import Foundation

extension LiveActivityPayloadChecker {
    /// Decodes `attributes` and `content-state` against the app's schema, as the device does.
    /// Source: A-LA (start needs attributes-type/attributes/content-state; default decoding strategies),
    /// flutter_live_activities#118 (undecodable content-state dropped after a 200), A-GEN.
    /// `onlySchemaIssues`: `content-state`'s issues against the one configured schema, when they were worked
    /// out before (only then; the schema an update is checked against is that one).
    static func checkDecoding(
        _ payload: LiveActivityPayload, event: LiveActivityEvent, context: LiveActivityCheckContext,
        onlySchemaIssues: [DecodeIssue]? = nil,
        into report: inout LiveActivityPayloadReport
    ) {
        if event == .start {
            checkStartDecoding(payload, context: context, into: &report)
            return
        }
        guard let contentState = payload.contentState else {
            if event == .update {
                report.warnings.append(LiveActivityWarningCode.contentStateMissing.warning(
                    "update without aps.content-state: the device has no state to decode and drops it; send the "
                        + "complete ContentState"))
            }
            return
        }
        guard let (schema, note) = schemaForUpdate(contentState, context: context) else {
            appendUncheckedWarning(context, into: &report)
            return
        }
        report.schema = schema
        report.schemaNote = note
        guard schema.contentStateChecked else {
            report.warnings.append(LiveActivityWarningCode.contentStateUnchecked.warning(
                "content-state was not checked: \(schema.attributesType).\(schema.contentStateType) could not be "
                    + "resolved from the Swift sources (see the problems printed at start-up)"))
            return
        }
        report.contentStateIssues = onlySchemaIssues
            ?? ContentStateChecker.check(contentState, fields: schema.contentState, path: "content-state")
        appendWarnings(for: report.contentStateIssues, area: .contentState, schema: schema, into: &report)
    }

    private static func checkStartDecoding(
        _ payload: LiveActivityPayload, context: LiveActivityCheckContext,
        into report: inout LiveActivityPayloadReport
    ) {
        if payload.contentState == nil {
            report.warnings.append(LiveActivityWarningCode.contentStateMissing.warning(
                "start without aps.content-state: the device cannot create the activity without its initial state"))
        }
        guard let typeName = payload.attributesType else {
            // `aps.attributes-type` as sent, when it is not a string: the warning names its JSON type.
            let sent = payload.aps["attributes-type"].map { " (it is \($0.typeDescription))" } ?? ""
            report.warnings.append(LiveActivityWarningCode.attributesTypeMissing.warning(
                "start without a string aps.attributes-type\(sent): name the ActivityAttributes struct, e.g. "
                    + "\"\(context.schemas.first?.attributesType ?? "DeliveryAttributes")\"; the device cannot start it"))
            return
        }
        if payload.attributes == nil {
            report.warnings.append(LiveActivityWarningCode.attributesMissing.warning(
                "start without aps.attributes: push-to-start needs the static attributes of \(typeName)"))
        }
        guard !context.schemas.isEmpty else {
            appendUncheckedWarning(context, into: &report)
            return
        }
        guard let schema = schema(named: typeName, in: context.schemas) else {
            let known = context.schemas.map(\.attributesType).joined(separator: ", ")
            report.warnings.append(LiveActivityWarningCode.attributesTypeUnknown.warning(
                "aps.attributes-type \"\(typeName)\" is not an ActivityAttributes type of the app (known: \(known)); "
                    + "the device cannot start it. The name must match the Swift struct exactly"))
            return
        }
        report.schema = schema
        if let attributes = payload.attributes, schema.attributesChecked {
            report.attributesIssues = ContentStateChecker.check(attributes, fields: schema.attributes, path: "attributes")
            appendWarnings(for: report.attributesIssues, area: .attributes, schema: schema, into: &report)
        }
        if let contentState = payload.contentState, schema.contentStateChecked {
            report.contentStateIssues = ContentStateChecker.check(
                contentState, fields: schema.contentState, path: "content-state")
            appendWarnings(for: report.contentStateIssues, area: .contentState, schema: schema, into: &report)
        }
    }

    /// The schema an update is checked against: the activity's own type when the device knows it, else the only
    /// configured type, else the configured type that decodes this content-state (reported in the note).
    static func schemaForUpdate(
        _ contentState: JSONValue, context: LiveActivityCheckContext
    ) -> (ActivitySchema, String?)? {
        guard !context.schemas.isEmpty else { return nil }
        if let known = context.activityAttributesType {
            return schema(named: known, in: context.schemas).map { ($0, nil) }
        }
        if context.schemas.count == 1, let only = context.schemas.first {
            return (only, "checked against \(only.attributesType), the only configured ActivityAttributes type")
        }
        let ranked = context.schemas.filter(\.contentStateChecked).map { schema in
            let issues = ContentStateChecker.check(contentState, fields: schema.contentState, path: "content-state")
            return (schema: schema, fatal: issues.filter(\.isFatal).count, unknown: issues.count { $0.kind == .unknownKey })
        }
        guard let best = ranked.min(by: { ($0.fatal, $0.unknown) < ($1.fatal, $1.unknown) }) else { return nil }
        let note = best.fatal == 0
            ? "the mock did not see this activity start; checked against \(best.schema.attributesType), whose "
                + "ContentState this content-state decodes as"
            : "the mock did not see this activity start and no configured type decodes this content-state; "
                + "closest is \(best.schema.attributesType)"
        return (best.schema, note)
    }

    /// The schema an activity of type `attributesType` is shown with: its own, else the only configured one (as
    /// `schemaForUpdate` checks an update of an activity whose start the mock did not see).
    public static func schema(forActivityOf attributesType: String?, in schemas: [ActivitySchema]) -> ActivitySchema? {
        if let attributesType { return schema(named: attributesType, in: schemas) }
        return schemas.count == 1 ? schemas.first : nil
    }

    static func schema(named name: String, in schemas: [ActivitySchema]) -> ActivitySchema? {
        schemas.first { $0.attributesType == name }
            ?? schemas.first { $0.attributesType.split(separator: ".").last.map(String.init) == name }
    }

    /// Adds the warning that content-state was not checked. With no schemas configured every push gets it, so when
    /// it is the first warning the warnings become the one array that holds it (no array allocated and no
    /// warning made per push; a later warning copies the array as it is appended).
    private static func appendUncheckedWarning(
        _ context: LiveActivityCheckContext, into report: inout LiveActivityPayloadReport
    ) {
        guard context.schemas.isEmpty else {
            report.warnings.append(LiveActivityWarningCode.contentStateUnchecked.warning(uncheckedReason(context)))
            return
        }
        if report.warnings.isEmpty {
            report.warnings = noSchemasWarnings
        } else {
            report.warnings.append(contentsOf: noSchemasWarnings)
        }
    }

    /// The warning of a push checked with no schemas configured, alone, made once.
    private static let noSchemasWarnings = [LiveActivityWarningCode.contentStateUnchecked.warning(noSchemasReason)]

    private static func uncheckedReason(_ context: LiveActivityCheckContext) -> String {
        if context.schemas.isEmpty { return noSchemasReason }
        return "content-state was not checked: the activity's type \(context.activityAttributesType ?? "?") has no "
            + "configured schema (known: \(context.schemas.map(\.attributesType).joined(separator: ", ")))"
    }

    /// Every Live Activity push of a mock without schemas carries it. One literal, not parts joined when first
    /// used: a literal's storage is never reference-counted, while a joined string's count would be changed by
    /// every event-loop thread for every push (one cache line bouncing between cores).
    private static let noSchemasReason = """
        content-state was not checked: no ActivityAttributes schemas are configured; start the mock with \
        --activity-source PATH (the app's Swift files) or declare the schema in the config file
        """

    enum DecodedArea {
        case attributes, contentState
    }

    private static func appendWarnings(
        for issues: [DecodeIssue], area: DecodedArea, schema: ActivitySchema, into report: inout LiveActivityPayloadReport
    ) {
        let typeName = area == .attributes ? schema.attributesType : "\(schema.attributesType).\(schema.contentStateType)"
        for issue in issues {
            let code: LiveActivityWarningCode
            var message = issue.message
            switch (issue.kind, area) {
            case (.unknownKey, .attributes): code = .attributesUnknownKey
            case (.unknownKey, .contentState): code = .contentStateUnknownKey
            case (.unixEpochDate, .attributes): code = .attributesUnixDate
            case (.unixEpochDate, .contentState): code = .contentStateUnixDate
            case (_, .attributes):
                code = .attributesInvalid
                message += "; \(typeName) does not decode, so the device cannot start the activity"
            case (_, .contentState):
                code = .contentStateInvalid
                message += "; \(typeName) does not decode, so the device drops the whole push (APNs still says 200)"
            }
            report.warnings.append(code.warning(message))
        }
    }
}
