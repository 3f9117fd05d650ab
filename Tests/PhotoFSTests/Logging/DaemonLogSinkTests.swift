import Foundation
import Glibc
import TestSupport
import Testing

/// Where a mounted daemon's log goes, read back from the receiving end: readable syslog
/// lines at `/dev/log` (a test-owned socket), journal entries with priorities and fields
/// in a journald of the test's own, and lines in a `--log-file`.
@Suite("logging: syslog, journal and log file", .serialized)
struct DaemonLogSinkTests {
    /// A library with an app, mounted in the background by the script's `photofs mount`:
    /// a granted listing, a picker write (info) and a refused one (warning), then unmount.
    static let workload = """
        "$B" mount --quiet --catalog "$C" "$L" "$M" || exit 20
        ls "$M/apps/editor" >/dev/null
        echo 'select editor '"$ASSET" > "$M/.picker"
        echo 'frobnicate' > "$M/.picker" 2>/dev/null
        "$B" unmount "$M" >/dev/null || exit 21
        """

    static func environment(_ library: IntegrationLibrary) -> String {
        "B='\(DaemonProcess.binary)' C='\(library.catalog)' L='\(library.library)' M='\(library.mountpoint)' ASSET='\(library.assets[1].id)'\n"
    }

    @Test(.enabled(if: PrivateMountNamespace.available))
    func backgroundSyslogLinesAreText() throws {
        let library = try IntegrationLibrary(prefix: "photofs-syslog")
        defer { library.remove() }
        try library.grant("editor", [0])
        let socket = try DatagramSocket(path: library.base + "/log.sock")
        let result = PrivateMountNamespace.runScript(
            PrivateMountNamespace.syslogAtTestSocket + Self.environment(library) + Self.workload, [socket.path])
        #expect(result.status == 0, "\(result.output)")
        let lines = socket.receive(until: "unmounted", timeout: 10)
        // RFC 3164 as glibc sends it: <facility*8+severity>TIMESTAMP photofs[PID]: TEXT
        let pattern = try NSRegularExpression(pattern: #"^<(\d+)>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d photofs\[\d+\]: (.+)$"#)
        var parsed: [(priority: Int, text: String)] = []
        for line in lines {
            let range = NSRange(line.startIndex..., in: line)
            guard let match = pattern.firstMatch(in: line, range: range), let p = Range(match.range(at: 1), in: line),
                let t = Range(match.range(at: 2), in: line)
            else {
                Issue.record("not a readable syslog line: \(line.debugDescription)")
                continue
            }
            parsed.append((Int(line[p]) ?? -1, String(line[t])))
        }
        let daemon = 3 << 3
        #expect(parsed.contains { $0.priority == daemon + Int(LOG_INFO) && $0.text.hasPrefix("mount ready on \(library.mountpoint)") })
        #expect(parsed.contains { $0.priority == daemon + Int(LOG_INFO) && $0.text.hasPrefix("picker: uid 0 applied a write") })
        #expect(parsed.contains { $0.priority == daemon + Int(LOG_WARNING) && $0.text.contains("write refused: invalid") })
        #expect(parsed.last?.text == "unmounted \(library.mountpoint)", "\(lines)")
    }

    @Test(.enabled(if: PrivateMountNamespace.available && JournalAvailability.available))
    func backgroundJournalEntriesHavePrioritiesAndFields() throws {
        let library = try IntegrationLibrary(prefix: "photofs-journal")
        defer { library.remove() }
        try library.grant("editor", [0])
        // A journald of the test's own, read with journalctl -D.
        let script = Self.withPrivateJournald(
            Self.environment(library) + Self.workload + """

                for i in $(seq 200); do
                    journalctl -D /run/log/journal SYSLOG_IDENTIFIER=photofs -o cat 2>/dev/null | grep -q '^unmounted' && break
                    sleep 0.05
                done
                echo '--- json'
                journalctl -D /run/log/journal SYSLOG_IDENTIFIER=photofs -o json --no-pager
                echo '--- warning'
                journalctl -D /run/log/journal SYSLOG_IDENTIFIER=photofs -p warning -o cat --no-pager
                """)
        let result = PrivateMountNamespace.runScript(script, [])
        #expect(result.status == 0, "\(result.output)")
        let parts = result.output.components(separatedBy: "--- warning\n")
        let json = parts.first?.components(separatedBy: "--- json\n").last ?? ""
        let entries = json.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let messages = entries.compactMap { $0["MESSAGE"] as? String }
        #expect(messages.first?.hasPrefix("mount ready on \(library.mountpoint)") == true, "\(result.output)")
        #expect(messages.last == "unmounted \(library.mountpoint)")
        for entry in entries {
            #expect(entry["PHOTOFS_MOUNTPOINT"] as? String == library.mountpoint)
            #expect(entry["_TRANSPORT"] as? String == "journal")
        }
        let write = entries.first { ($0["MESSAGE"] as? String)?.contains("applied a write") == true }
        #expect(write?["PHOTOFS_APP"] as? String == "editor")
        #expect(write?["PRIORITY"] as? String == "6")
        let refused = entries.first { ($0["MESSAGE"] as? String)?.contains("write refused") == true }
        #expect(refused?["PRIORITY"] as? String == "4")
        // journalctl -p warning shows the warning and nothing of lower priority.
        let warnings = (parts.count > 1 ? parts[1] : "").split(separator: "\n").map(String.init)
        #expect(warnings == ["picker: uid 0 write refused: invalid"], "\(warnings)")
        #expect(LogScan.problems(in: messages.joined(separator: "\n"), coordinates: []) == [])
    }

    /// A journald of the test's own on a tmpfs /run, for `script` (which sees `$journald`).
    static func withPrivateJournald(_ script: String) -> String {
        """
        set -e
        mount -t tmpfs tmpfs /run
        mount -t tmpfs tmpfs /var/log/journal 2>/dev/null || true
        mkdir -p /run/systemd/journal
        '\(JournalAvailability.journald)' & journald=$!
        for i in $(seq 200); do [ -S /run/systemd/journal/socket ] && break; sleep 0.05; done
        set +e
        \(script)
        kill $journald; wait $journald

        """
    }

    /// In front under systemd, stderr is a journal stream and `JOURNAL_STREAM` names it
    /// (set here as systemd sets it, around systemd-cat): the daemon then sends its lines
    /// natively, with priorities and fields, rather than as text on the stream. The same run
    /// with a `JOURNAL_STREAM` that names another stream writes text to stderr.
    @Test(.enabled(if: PrivateMountNamespace.available && JournalAvailability.available))
    func foregroundUnderSystemdLogsNatively() throws {
        let library = try IntegrationLibrary(prefix: "photofs-journal")
        defer { library.remove() }
        try library.grant("editor", [0])
        func runForeground(_ stream: String) -> [[String: Any]] {
            let script = Self.withPrivateJournald(
                Self.environment(library) + """
                    systemd-cat -t photofs-stderr sh -c 'JOURNAL_STREAM=\(stream) exec "$0" mount -f --quiet --catalog "$1" "$2" "$3"' \
                        "$B" "$C" "$L" "$M" & daemon=$!
                    for i in $(seq 200); do [ -e "$M/.picker" ] && break; sleep 0.05; done
                    echo 'frobnicate' > "$M/.picker" 2>/dev/null
                    fusermount3 -u "$M"
                    wait $daemon
                    sleep 0.2
                    echo '--- json'
                    journalctl -D /run/log/journal -o json --no-pager _COMM=photofs
                    """)
            let result = PrivateMountNamespace.runScript(script, [])
            #expect(result.status == 0, "\(result.output)")
            let json = result.output.components(separatedBy: "--- json\n").last ?? ""
            return json.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }
        let native = runForeground("$(stat -L -c %d:%i /proc/self/fd/2)")
        #expect(native.contains { $0["MESSAGE"] as? String == "picker: uid 0 write refused: invalid" && $0["PRIORITY"] as? String == "4" })
        #expect(!native.isEmpty && native.allSatisfy { $0["_TRANSPORT"] as? String == "journal" }, "\(native)")
        #expect(native.allSatisfy { $0["PHOTOFS_MOUNTPOINT"] as? String == library.mountpoint })
        // Control: a JOURNAL_STREAM of another stream leaves the lines as text on stderr.
        let text = runForeground("1:1")
        #expect(text.contains { ($0["MESSAGE"] as? String)?.hasSuffix("warning: picker: uid 0 write refused: invalid") == true })
        #expect(!text.isEmpty && text.allSatisfy { $0["_TRANSPORT"] as? String == "stdout" }, "\(text)")
    }

    @Test(.enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
    func logFileTakesTheLinesInTheBackground() throws {
        let library = try IntegrationLibrary(prefix: "photofs-logfile")
        defer { library.remove() }
        try library.grant("editor", [0])
        let logFile = library.base + "/daemon.log"
        let mounted = run([
            DaemonProcess.binary, "mount", "--quiet", "--log-file", logFile, "--log-level", "debug", "--catalog", library.catalog,
            library.library, library.mountpoint,
        ])
        #expect(mounted.status == 0, "\(mounted.output)")
        #expect(mounted.output == "", "a background mount prints nothing on success")
        guard mounted.status == 0 else { return }
        #expect(PickerFile.write(library.mountpoint, "frobnicate\n").succeeded == false)
        #expect(run([DaemonProcess.binary, "unmount", library.mountpoint]).status == 0)
        var text = ""
        for _ in 0..<200 {
            text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            if text.contains("unmounted") { break }
            usleep(25_000)
        }
        let lines = text.split(separator: "\n").map(String.init)
        let pattern = try NSRegularExpression(pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ photofs\[\d+\] (debug|info|warning|error): "#)
        for line in lines {
            #expect(pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains(" debug: startup") })
        #expect(lines.contains { $0.contains(" warning: picker: uid 0 write refused: invalid") })
        #expect(lines.last?.hasSuffix("info: unmounted \(library.mountpoint)") == true, "\(lines)")
        var status = stat()
        #expect(stat(logFile, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(LogScan.problems(in: text, coordinates: []) == [])
    }

    @Test(.enabled(if: DaemonProcess.binaryExists))
    func unwritableLogFileIsRefusedBeforeMounting() throws {
        let library = try IntegrationLibrary(prefix: "photofs-logfile")
        defer { library.remove() }
        let result = run([
            DaemonProcess.binary, "mount", "--log-file", library.base + "/no/such/dir/x.log", "--catalog", library.catalog,
            library.library, library.mountpoint,
        ])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot open the log file") && result.output.contains("No such file or directory"))
        #expect(!IntegrationLibrary.isMounted(library.mountpoint))
    }
}

/// A journald binary and journalctl to run one privately (outside the suite: a suite
/// trait may not refer to the suite itself).
enum JournalAvailability {
    static let journald = "/lib/systemd/systemd-journald"

    static var available: Bool {
        let hostJournal = access("/run/systemd/journal/socket", F_OK) == 0
        print(
            "journal test: the machine's journald \(hostJournal ? "runs" : "does not run"); the test runs its own in a private mount namespace"
        )
        return Skip.unless(
            access(journald, X_OK) == 0 && IntegrationLibrary.program("journalctl") != nil,
            "journal test: \(journald) or journalctl is missing (Debian package systemd)")
    }
}
