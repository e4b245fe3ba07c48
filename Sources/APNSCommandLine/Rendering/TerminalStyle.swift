import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How command-line output looks: colour only when standard output is a terminal and `NO_COLOR` is unset
/// (https://no-color.org), and the width to fit.
package struct TerminalStyle: Sendable {
    package var colour: Bool
    package var width: Int

    package init(colour: Bool, width: Int) {
        self.colour = colour
        self.width = width
    }

    /// The style for this process's standard output.
    package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalStyle {
        let isTTY = isatty(STDOUT_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        var width = Int(environment["COLUMNS"] ?? "") ?? 0
        if width <= 0, isTTY {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 { width = Int(size.ws_col) }
        }
        // Piped output (CI logs, grep) is never cut: only a terminal has a width to fit.
        guard isTTY else { return TerminalStyle(colour: false, width: unlimitedWidth) }
        return TerminalStyle(colour: !noColor, width: width > 0 ? width : 120)
    }

    /// The width of output that is not a terminal: long enough that nothing is cut.
    package static let unlimitedWidth = 1_000_000

    package enum Colour: String, Sendable {
        case green = "32"
        case red = "31"
        case yellow = "33"
        case dim = "2"
        case bold = "1"
    }

    package func paint(_ text: String, _ colour: Colour) -> String {
        self.colour ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}
