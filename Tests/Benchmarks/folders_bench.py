#!/usr/bin/env python3
"""Warm `find -printf %s` of a view (folders-bench.sh): the direct tree and each build
mounted at the same time, two untimed passes each, then ROUNDS rounds in a rotating order;
medians, and each build's speed as a ratio to the direct tree in the same run."""
import os, statistics, subprocess, sys, tempfile, time
from bench_common import start_photofs

LIB = os.environ["LIBRARY"]
VIEW = os.environ.get("VIEW", "library/folders")
ROUNDS = int(os.environ.get("ROUNDS", "5"))


def timed(path):
    """Wall seconds, CPU seconds (user + system: what the walk cost, less disturbed by other
    work on the machine than the wall time) and the entries printed."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(["find", path, "-printf", "%s\n"], stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit("folders-bench: find %s failed" % path)
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, out.read().count(b"\n")


def main():
    builds = [("photofs", os.environ["PHOTOFS_BIN"], os.environ["CATALOG"])]
    if os.environ.get("PHOTOFS_BASELINE_BIN"):
        builds.append(("baseline", os.environ["PHOTOFS_BASELINE_BIN"], os.environ["BASELINE_CATALOG"]))
    targets = [("direct", LIB)]
    mounted = []
    try:
        for name, binary, catalog in builds:
            mnt = tempfile.mkdtemp(prefix="folders-bench-")
            start = time.perf_counter()
            mounted.append((start_photofs(binary, catalog, LIB, mnt), mnt))
            print("%s: mount -> ready %.1f s" % (name, time.perf_counter() - start), file=sys.stderr)
            targets.append((name, os.path.join(mnt, VIEW)))
        for _, path in targets:
            timed(path)
            timed(path)
        times = {name: [] for name, _ in targets}
        cpu = {name: [] for name, _ in targets}
        counts = {}
        for r in range(ROUNDS):
            shift = r % len(targets)
            for name, path in targets[shift:] + targets[:shift]:
                seconds, used, counts[name] = timed(path)
                times[name].append(seconds)
                cpu[name].append(used)
    finally:
        for proc, mnt in mounted:
            subprocess.run(["fusermount3", "-u", mnt])
            proc.wait(timeout=120)
            os.rmdir(mnt)
    direct = statistics.median(times["direct"])
    direct_cpu = statistics.median(cpu["direct"])
    print("### Warm `find -printf %%s` of %s: %s, %d rounds, load %s" % (
        VIEW, LIB, ROUNDS, " ".join(open("/proc/loadavg").read().split()[:3])))
    print()
    print("| target | entries | wall, median (s) | direct ÷ target, wall | find's CPU, median (s) | direct ÷ target, CPU | wall per round (s) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, values in times.items():
        median = statistics.median(values)
        used = statistics.median(cpu[name])
        print("| %s | %d | %.3f | %.2f× | %.3f | %.2f× | %s |" % (
            name, counts[name], median, direct / median, used, direct_cpu / used, " ".join("%.3f" % v for v in values)))


if __name__ == "__main__":
    main()
