import APNSCore
import Foundation

/// The aligned table `apns-mock deliveries` prints: one line per delivery, columns padded to the widest value,
/// the explanation cut to fit the terminal width.
package enum DeliveryTable {
    static let headings = ["ID", "TIME", "STATUS", "REASON", "TYPE", "TOKEN", "TOPIC", "EXPLANATION"]

    package static func render(_ records: [DeliveryRecord], style: TerminalStyle, header: Bool = true) -> String {
        render(records, style: style, header: header, widths: nil)
    }

    /// With `widths` (from `followWidths`), every column has exactly that width (longer cells are cut with `…`),
    /// so rows printed later by `--follow` line up with the header printed first.
    package static func render(
        _ records: [DeliveryRecord], style: TerminalStyle, header: Bool, widths fixedWidths: [Int]?
    ) -> String {
        let rows = records.map(cells)
        var widths = fixedWidths ?? headings.map(\.count)
        if fixedWidths == nil {
            for row in rows {
                for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
            }
        }
        let fixed = widths.dropLast().reduce(0, +) + 2 * (widths.count - 1)
        widths[widths.count - 1] = max(12, style.width - fixed)
        var lines: [String] = []
        if header { lines.append(line(headings, widths: widths, style: style, colour: .bold)) }
        for (record, row) in zip(records, rows) {
            let cut = fixedWidths == nil ? row : zip(row, widths).map { truncate($0, $1) }
            lines.append(line(cut, widths: widths, style: style, colour: colour(of: record)))
        }
        return lines.joined(separator: "\n")
    }

    /// Column widths for `--follow`: wide enough for the first page and for the usual values of later ones.
    package static func followWidths(for records: [DeliveryRecord]) -> [Int] {
        var widths = [6, 12, 27, 20, 12, 15, 30, 0]  // STATUS fits "200 · device will misbehave"
        for row in records.map(cells) {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return widths
    }

    /// Green accepted, red rejected, yellow for the third verdict (accepted, but the device did not apply it) and
    /// for an accepted push that will misbehave on the device.
    static func colour(of record: DeliveryRecord) -> TerminalStyle.Colour {
        if record.acceptedButNotApplied || record.willMisbehaveOnDevice { return .yellow }
        return record.accepted ? .green : .red
    }

    static func cells(_ record: DeliveryRecord) -> [String] {
        let time = DeliveryFormat.time(record.receivedAt)
        // A push the device will misbehave on: the first warning that says why (the device's "applied" would read
        // as all well).
        let misbehaving = record.misbehavingWarningCodes.first.flatMap { code in record.warnings.first { $0.code == code } }
        let explanation = misbehaving.map { "⚠ \($0.code): \($0.message)" } ?? record.explanation
            ?? record.liveActivity?.explanation
            ?? (record.warnings.isEmpty ? "" : "⚠ " + record.warnings.map(\.code).joined(separator: ", "))
        return [
            String(record.id), time, record.status == 0 ? "none" : record.statusLabel,
            record.reason ?? record.injected.map { "injected: \($0.effect)" } ?? "-", record.pushType ?? "-",
            DeliveryFormat.shortToken(record.deviceToken), record.topic ?? "-", explanation,
        ]
    }

    /// Pads every cell but the last; colours only the status column so alignment is unaffected.
    static func line(_ cells: [String], widths: [Int], style: TerminalStyle, colour: TerminalStyle.Colour) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() {
            let last = index == cells.count - 1
            let text = last ? truncate(cell, widths[index]) : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            let painted = (index == 2 || colour == .bold) ? style.paint(text, colour) : text
            parts.append(painted)
        }
        return parts.joined(separator: "  ")
    }

    static func truncate(_ text: String, _ width: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= width ? flat : String(flat.prefix(max(1, width - 1))) + "…"
    }
}

/// Small formatting helpers shared by the table and `explain`.
enum DeliveryFormat {
    /// `HH:mm:ss.SSS` in UTC, from the record's ISO time.
    static func time(_ timestamp: Timestamp) -> String {
        let iso = DeliveryRecord.iso8601(timestamp)
        let start = iso.index(iso.startIndex, offsetBy: 11)
        return String(iso[start...].dropLast())
    }

    static func shortToken(_ token: String?) -> String {
        guard let token else { return "-" }
        return token.count > 16 ? token.prefix(8) + "…" + token.suffix(6) : token
    }
}
