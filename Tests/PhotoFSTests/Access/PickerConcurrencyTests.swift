import Foundation
import Glibc
import Testing

/// `.picker` and the CLI under concurrent use, through a real mount: eight writers (the
/// photofs CLI, each changing its own app and sending refused requests with a token of its
/// own) and eight readers (`read(2)` in 4 KiB steps, so one reading spans many READ
/// requests). Every refused call must print its own reason, every valid one must succeed,
/// and every reading must be one consistent rendering.
@Suite(
    "access: concurrent picker users through a real mount", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct PickerConcurrencyTests {
    @Test func everyCallerGetsItsOwnOutcomeAndEveryReadIsWhole() throws {
        let fixture = try AccessFixture(count: 120, seed: 21)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let writers = 8
        let perApp = 40
        var apps: [String: [String]] = [:]
        var setup = ""
        for index in 0..<writers {
            let name = "w\(index)"
            let ids = (0..<perApp).map { fixture.assets[(index * 11 + $0) % fixture.assets.count].id }
            apps[name] = Array(Set(ids))
            setup += "app add \(name)\n"
        }
        #expect(PickerFile.write(fixture.mountpoint, setup).succeeded)
        let plan: [String: Any] = [
            "binary": DaemonProcess.binary, "catalog": fixture.catalog, "picker": fixture.path(".picker"), "apps": apps,
            "seconds": 12, "readers": 8,
        ]
        let directory = temporaryDirectory("photofs-concurrency")
        defer { run(["/bin/rm", "-rf", directory]) }
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: directory + "/plan.json"))
        try Self.driver.write(toFile: directory + "/driver.py", atomically: true, encoding: .utf8)
        let result = run(["/usr/bin/python3", directory + "/driver.py", directory + "/plan.json"])
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "driver: \(result.output)")
        print("picker concurrency: \(line)")
        let calls = report["calls"] as? Int ?? 0
        let refused = report["refused"] as? Int ?? 0
        let reads = report["reads"] as? Int ?? 0
        #expect(calls > 40 && refused > 10 && reads > 100, "too little happened: \(line)")
        #expect(report["misattributed"] as? Int == 0, "\(report["examples"] ?? "")")
        #expect(report["failedValid"] as? Int == 0, "\(report["examples"] ?? "")")
        #expect(report["torn"] as? Int == 0, "\(report["examples"] ?? "")")

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }

    /// A `write(2)` over `max_write` (1 MiB) is refused whole with EFBIG and changes
    /// nothing; one just under it is one transaction.
    @Test func writesTheKernelMaySplitAreRefusedWhole() throws {
        let fixture = try AccessFixture(count: 12, seed: 22)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let (first, last) = (fixture.assets[0].id, fixture.assets[1].id)
        #expect(PickerFile.write(mnt, "app add big\nselect big \(first)\n").succeeded)
        // Valid, no-op lines up to the size, then one that changes the selection.
        func write(of size: Int) -> String {
            let filler = "deselect big \(last)\n"
            let tail = "select big \(last)\ndeselect big \(first)\n"
            let count = (size - tail.utf8.count - 2) / filler.utf8.count
            let comment = "#" + String(repeating: " ", count: size - tail.utf8.count - count * filler.utf8.count - 2) + "\n"
            return comment + String(repeating: filler, count: count) + tail
        }
        #expect(write(of: 1 << 20).utf8.count == 1 << 20)
        let large = write(of: (1 << 20) + (1 << 19))
        let refused = PickerFile.write(mnt, large)
        #expect(refused.errno == EFBIG, "a 1.5 MiB write: \(refused)")
        #expect(PickerFile.selection(mnt, app: "big") == [first], "nothing of a refused write applies")
        let exact = write(of: 1 << 20)
        #expect(PickerFile.write(mnt, exact).errno == EFBIG, "a write that fills max_write may have been split")
        #expect(PickerFile.selection(mnt, app: "big") == [first])
        let fitting = write(of: (1 << 20) - 8192)
        #expect(PickerFile.write(mnt, fitting).succeeded, "a write under 1 MiB")
        #expect(PickerFile.selection(mnt, app: "big") == [last])
        #expect(fixture.daemon.log.contains("may be part of a larger write(2)"))

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
    }

    /// Writers run the CLI (select of their whole set, clear, or a refused select naming a
    /// token of their own); readers read `.picker` in 4 KiB steps and check each reading.
    static let driver = #"""
        import json, os, re, subprocess, sys, threading, time

        plan = json.load(open(sys.argv[1]))
        apps = plan["apps"]
        stop = time.time() + plan["seconds"]
        lock = threading.Lock()
        counts = {"calls": 0, "refused": 0, "misattributed": 0, "failedValid": 0, "reads": 0, "torn": 0}
        examples = []

        def note(key, example=None):
            with lock:
                counts[key] += 1
                if example and len(examples) < 5:
                    examples.append(example)

        def writer(name, ids):
            k = 0
            while time.time() < stop:
                k += 1
                if k % 3 == 0:
                    token = "bogus_%s_%d" % (name, k)
                    args = ["select", name, token]
                elif k % 3 == 1:
                    args = ["select", name] + ids
                else:
                    args = ["clear", name]
                done = subprocess.run([plan["binary"]] + args + ["--catalog", plan["catalog"]], capture_output=True, text=True)
                note("calls")
                if args[2:3] and args[2].startswith("bogus_"):
                    note("refused")
                    if done.returncode != 4 or ("'%s'" % args[2]) not in done.stderr:
                        note("misattributed", "%s got %d: %s" % (args[2], done.returncode, done.stderr.strip()))
                elif done.returncode != 0:
                    note("failedValid", "%s failed %d: %s" % (" ".join(args[:2]), done.returncode, done.stderr.strip()))

        header = re.compile(r"^# (\S+): (\d+) selected, (\d+) visible$")
        def consistent(text):
            if not text.endswith("\n"):
                return "no final newline"
            lines = text.split("\n")[:-1]
            if not lines[0].startswith("# photofs picker:"):
                return "bad first line"
            m = re.match(r"^# (\d+) apps?$", lines[1])
            if not m:
                return "bad count line"
            declared, current, seen, adds = int(m.group(1)), None, {}, 0
            for line in lines[2:]:
                h = header.match(line)
                if h:
                    current = h.group(1)
                    seen[current] = [int(h.group(2)), 0]
                elif line.startswith("app add "):
                    adds += 1
                elif line.startswith("select ") or line.startswith("# select "):
                    words = line.lstrip("# ").split()
                    if current is None or words[1] != current or words[2] not in apps.get(current, []):
                        return "stray line %r" % line
                    seen[current][1] += 1
                elif line != "":
                    return "unknown line %r" % line
            if adds != declared or len(seen) != declared:
                return "%d apps declared, %d app lines" % (declared, adds)
            for name, (said, listed) in seen.items():
                if said != listed or (name in apps and listed not in (0, len(apps[name]))):
                    return "%s: header says %d, %d lines" % (name, said, listed)
            return None

        def reader():
            while time.time() < stop:
                fd = os.open(plan["picker"], os.O_RDONLY)
                chunks = []
                while True:
                    chunk = os.read(fd, 4096)
                    if not chunk:
                        break
                    chunks.append(chunk)
                os.close(fd)
                text = b"".join(chunks).decode("utf-8", "replace")
                problem = consistent(text)
                note("reads")
                if problem:
                    note("torn", "torn read (%d bytes): %s" % (len(text), problem))

        threads = [threading.Thread(target=writer, args=(name, ids)) for name, ids in sorted(apps.items())]
        threads += [threading.Thread(target=reader) for _ in range(plan["readers"])]
        for t in threads: t.start()
        for t in threads: t.join()
        counts["examples"] = examples
        print(json.dumps(counts))
        """#
}
