import Foundation
import Glibc

// The photofs command-line tool and daemon entry point: builds the environment once and
// hands argv (as bytes, see `RawArguments`) to the dispatcher.
let environment = Environment(
    variables: ProcessInfo.processInfo.environment,
    stderrIsTerminal: isatty(2) == 1,
    stdoutIsTerminal: isatty(1) == 1,
    executablePath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0],
    output: Output()
)
let code = Dispatcher(environment: environment).run(RawArguments.current())
exit(code.rawValue)
