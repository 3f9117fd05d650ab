/// A failure of a command, with the one-sentence message shown on stderr and its exit code.
struct CLIError: Error, Sendable {
    let message: String
    let exitCode: ExitCode

    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: .usage) }
    static func notFound(_ message: String) -> CLIError { CLIError(message: message, exitCode: .notFound) }
    static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: .failure) }
    static func missingDependency(_ message: String) -> CLIError { CLIError(message: message, exitCode: .missingDependency) }
    static func refused(_ message: String) -> CLIError { CLIError(message: message, exitCode: .refused) }
}
