import PhotoCore
import PickerServer

/// `photofs pick APP --terminal` (placeholder until the terminal picker lands).
struct TerminalPicker {
    let setup: PickerSetup
    let actions: PickActions
    let output: Output

    func run() throws(CLIError) -> ExitCode {
        throw .usage("the terminal picker is not available yet; use the browser picker.")
    }
}
