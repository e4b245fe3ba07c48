import APNSCore
import APNSStore
import Foundation

/// The aligned table `apns-mock deliveries` prints: one line per delivery, columns padded to the widest value,
/// the explanation cut to fit the terminal width.
public enum DeliveryTable {
    static let headings = ["ID", "TIME", "STATUS", "REASON", "TYPE", "TOKEN", "TOPIC", "EXPLANATION"]

    public static func render(_ records: [DeliveryRecord], style: TerminalStyle, header: Bool = true) -> String {
        let rows = records.map(cells)
        var widths = headings.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let fixed = widths.dropLast().reduce(0, +) + 2 * (widths.count - 1)
        widths[widths.count - 1] = max(12, style.width - fixed)
        var lines: [String] = []
        if header { lines.append(line(headings, widths: widths, style: style, colour: .bold)) }
        for (record, row) in zip(records, rows) {
            lines.append(line(row, widths: widths, style: style, colour: record.accepted ? .green : .red))
        }
        return lines.joined(separator: "\n")
    }

    static func cells(_ record: DeliveryRecord) -> [String] {
        let time = DeliveryFormat.time(record.receivedAt)
        let explanation = record.explanation ?? record.liveActivity?.explanation
            ?? (record.warnings.isEmpty ? "" : "⚠ " + record.warnings.map(\.code).joined(separator: ", "))
        return [
            String(record.id), time, record.status == 0 ? "none" : String(record.status),
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
