import Foundation
import PhotoImaging
import SystemKit

// The photofs command-line tool and daemon entry point: builds the environment once and
// hands argv (as bytes, see `RawArguments`) to the dispatcher.

// The hidden decoder process: serves decode requests on stdin/stdout (a socket) and never
// parses anything else, so it starts fast and a crash in a C decoder stays in it.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "thumbnail-worker" {
    exit(DecoderWorker.serve(fd: 0))
}

let environment = Environment(
    variables: ProcessInfo.processInfo.environment,
    stderrIsTerminal: Terminal.isTerminal(.standardError),
    stdoutIsTerminal: Terminal.isTerminal(.standardOutput),
    executablePath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0],
    output: Output()
)
let code = Dispatcher(environment: environment).run(RawArguments.current())
exit(code.rawValue)
