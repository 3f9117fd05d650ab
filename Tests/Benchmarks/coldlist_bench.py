#!/usr/bin/env python3
"""Cold listings side by side: `ls -f` and `find -printf %s` of read-bench's flat folder
(MANY_FILES names), directly on ext4 and through photofs as `library/folders/flat` and as
`library/all` (the flat folder plus read-bench's small and large files), for PHOTOFS_BIN and
PHOTOFS_BASELINE_BIN when given. Every target is mounted at once and measured in rounds,
each round in a rotated order, with dentries and inodes dropped (`echo 2 > drop_caches`)
before every command. Each round gives a paired ratio (direct's time over the target's, the
two measured minutes apart at most); the table shows the median of those ratios next to the
median times. On a loaded machine, wall times move with the load from minute to minute;
the CPU time each command cost (the tool's own plus every daemon thread's, from
/proc/PID/task/*/schedstat) moves much less with it. The first round's `find` on each mount
is also shown alone: it is the first stat walk the mount sees.
Prints a markdown table. Needs root.
Usage: COLD_LISTING=compare Tests/Benchmarks/read-bench.sh [WORKDIR]   (env RUNS: rounds, default 9)."""
import os, resource, statistics, subprocess, sys, tempfile, time

import read_bench
from read_bench import WORK, catalog, drop_dentries, lib
from bench_common import sh, start_photofs

ROUNDS = int(os.environ.get("RUNS", "9"))
COMMANDS = {"ls -f": lambda d: ["ls", "-f", d], "find -printf %s": lambda d: ["find", d, "-printf", "%s\n"]}


def daemon_seconds(pid):
    """CPU seconds every thread of `pid` has run so far."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # a thread that ended meanwhile
    return total / 1e9


def wait_idle(pid, limit=120):
    """Waits until the daemon `pid` has finished its start-up work (the library check after
    it is ready): until it ran under 5 ms of CPU in half a second, at most `limit` seconds."""
    end = time.monotonic() + limit
    before = daemon_seconds(pid)
    while time.monotonic() < end:
        time.sleep(0.5)
        now = daemon_seconds(pid)
        if now - before < 0.005:
            return
        before = now


def measure(command, pid):
    """(wall seconds, CPU seconds of the tool and the daemon) of one cold run."""
    drop_dentries()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    daemon = daemon_seconds(pid) if pid else 0
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if pid:
        cpu += daemon_seconds(pid) - daemon
    return wall, cpu


def main():
    if os.geteuid() != 0:
        raise SystemExit("coldlist_bench: dropping dentries needs root")
    read_bench.build_library()
    sh(read_bench.PHOTOFS, "index", lib, "--catalog", catalog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    builds = [("photofs", read_bench.PHOTOFS)] + ([("baseline", read_bench.BASELINE)] if read_bench.BASELINE else [])
    flat = os.path.join(lib, "flat")
    targets = [("direct", flat, None)]
    mounts = []
    try:
        for name, binary in builds:
            mnt = tempfile.mkdtemp(prefix="bench-coldlist-", dir=WORK)
            proc = start_photofs(binary, catalog, lib, mnt)
            mounts.append((mnt, proc))
            wait_idle(proc.pid)
            targets.append(("%s folders" % name, os.path.join(mnt, "library", "folders", "flat"), proc.pid))
            targets.append(("%s all" % name, os.path.join(mnt, "library", "all"), proc.pid))
        results = {}
        for round_number in range(ROUNDS):
            shift = round_number % len(targets)
            for label, make in COMMANDS.items():
                for name, directory, pid in targets[shift:] + targets[:shift]:
                    results.setdefault((label, name), []).append(measure(make(directory), pid))
    finally:
        for mnt, proc in mounts:
            subprocess.run(["fusermount3", "-u", mnt])
            proc.wait(timeout=30)
            os.rmdir(mnt)
    names = [name for name, _, _ in targets]
    count = len(os.listdir(flat))
    print("| cold, %d names (%d paired rounds) | %s | %s |" % (
        count, ROUNDS, " | ".join(names), " | ".join("%s ÷ direct" % n for n in names[1:])))
    print("|---|" + "---:|" * (2 * len(names) - 1))
    for label in COMMANDS:
        for index, unit in ((0, "wall"), (1, "CPU")):
            medians = {n: statistics.median(r[index] for r in results[(label, n)]) for n in names}
            ratios = {n: statistics.median(d[index] / t[index] for d, t in zip(results[(label, "direct")], results[(label, n)]))
                      for n in names[1:]}
            print("| `%s`, %s | %s | %s |" % (
                label, unit, " | ".join("%.3f s" % medians[n] for n in names),
                " | ".join("%.2f×" % ratios[n] for n in names[1:])))
    first = results[("find -printf %s", names[0])][0][0]
    print("| `find -printf %%s`, wall, first round only | %s | %s |" % (
        " | ".join("%.3f s" % results[("find -printf %s", n)][0][0] for n in names),
        " | ".join("%.2f×" % (first / results[("find -printf %s", n)][0][0]) for n in names[1:])))
    load = open("/proc/loadavg").read().split()[:3]
    print("\nRatios: median over rounds of direct's time ÷ the target's in the same round. "
          "Load average at the end: %s." % " ".join(load))

if __name__ == "__main__":
    main()
