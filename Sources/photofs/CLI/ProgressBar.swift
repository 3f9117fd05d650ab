import Synchronization
import SystemKit

/// Draws progress of long work on stderr: a bar with count, rate and ETA on a terminal,
/// a plain line every few seconds otherwise (logs, CI).
final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var total = 0
        /// Bytes of the files done and of all files, when the work is measured in files of a size.
        var bytesDone: Int64 = 0
        var bytesTotal: Int64 = 0
        var lastDraw: Double = 0
        var started: Double
    }

    private let label: String
    private let isTerminal: Bool
    private let output: Output
    private let state: Mutex<State>

    init(label: String, isTerminal: Bool, output: Output) {
        self.label = label
        self.isTerminal = isTerminal
        self.output = output
        self.state = Mutex(State(started: ProgressBar.now()))
    }

    /// Records progress; draws at most 10 times a second (every 5 s without a terminal).
    func update(done: Int, total: Int, bytesDone: Int64 = 0, bytesTotal: Int64 = 0) {
        let line: String? = state.withLock { state in
            state.done = done
            state.total = total
            state.bytesDone = bytesDone
            state.bytesTotal = bytesTotal
            let now = ProgressBar.now()
            let interval = isTerminal ? 0.1 : 5.0
            guard now - state.lastDraw >= interval || done == total else { return nil }
            state.lastDraw = now
            return render(state, now: now)
        }
        if let line { output.err(isTerminal ? "\r\u{1B}[K" + line : line + "\n") }
    }

    /// Ends the bar's line on a terminal.
    func finish() {
        if isTerminal { output.err("\r\u{1B}[K") }
    }

    private func render(_ state: State, now: Double) -> String {
        let elapsed = max(now - state.started, 0.001)
        let rate = Double(state.done) / elapsed
        let fraction = state.total > 0 ? Double(state.done) / Double(state.total) : 0
        let remaining = rate > 0 ? Double(state.total - state.done) / rate : 0
        let width = 30
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = Int(fraction * 100)
        let bytes = state.bytesTotal > 0 ? " \(Self.size(state.bytesDone))/\(Self.size(state.bytesTotal))" : ""
        return
            "\(label) [\(bar)] \(state.done)/\(state.total) files\(bytes) \(percent)% \(Int(rate)) files/s ETA \(Self.duration(remaining))"
    }

    /// A byte count in the largest binary unit that keeps it at or above 1 (one decimal).
    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : "\((value * 10).rounded() / 10) \(units[unit])"
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }

    static func now() -> Double { SystemClock.monotonicSeconds() }
}
