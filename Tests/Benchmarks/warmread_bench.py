#!/usr/bin/env python3
"""Warm reads side by side: read-bench's 2,000 small files read whole, and random 4 KiB
reads of its large files, through libfuse's `passthrough_ll` tuned for reading
(`-o ro,cache=always`: the page cache kept across opens, entries and attributes trusted
for a day) and through photofs `library/folders` (PHOTOFS_BIN, and PHOTOFS_BASELINE_BIN
when given), everything cached beforehand. Every target is mounted at once and measured in
rounds, each round in a rotated order; each round gives a paired ratio (passthrough_ll's
time ÷ the target's), in wall time and in CPU time (the reading thread's plus every daemon
thread's, which moves much less with the machine's load). Prints a markdown table of the
medians.
Usage: WARM_READS=compare Tests/Benchmarks/read-bench.sh [WORKDIR]
       (env RUNS: rounds, default 9; RANDOM_READS: 4 KiB reads per round, default 20000)."""
import os, random, statistics, time

import read_bench
from read_bench import Mount, files_in, timed
from bench_common import cat_all
from coldlist_bench import daemon_seconds, wait_idle

ROUNDS = int(os.environ.get("RUNS", "9"))
READS = int(os.environ.get("RANDOM_READS", "20000"))


def random_reads(paths, seed, pid):
    """READS preads of 4 KiB at 4 KiB-aligned offsets spread over `paths`, kept open:
    (wall seconds, CPU seconds) as `costed` counts them."""
    fds = [os.open(p, os.O_RDONLY) for p in paths]
    try:
        sizes = [os.fstat(fd).st_size // 4096 for fd in fds]
        rnd = random.Random(seed)
        plan = [(fds[i], rnd.randrange(sizes[i]) * 4096) for i in (rnd.randrange(len(fds)) for _ in range(READS))]
        def run():
            start = time.perf_counter()
            for fd, offset in plan:
                os.pread(fd, 4096, offset)
            return time.perf_counter() - start
        return costed(run, pid)
    finally:
        for fd in fds:
            os.close(fd)


def costed(fn, pid):
    """(wall seconds, CPU seconds of this thread and of every thread of `pid`) of `fn`."""
    daemon = daemon_seconds(pid)
    cpu = time.thread_time()
    wall = fn()
    return wall, time.thread_time() - cpu + daemon_seconds(pid) - daemon


def main():
    read_bench.build_library()
    read_bench.sh(read_bench.PHOTOFS, "index", read_bench.lib, "--catalog", read_bench.catalog,
                  stdout=read_bench.subprocess.DEVNULL, stderr=read_bench.subprocess.DEVNULL)
    kinds = ["pll-tuned", "photofs"] + (["photofs-baseline"] if read_bench.BASELINE else [])
    mounts = [Mount(k) for k in kinds]
    results = {}
    try:
        for m in mounts:
            m.__enter__()
            wait_idle(m.proc.pid)
            # Warm: every file read once through this mount.
            cat_all(files_in(m.root("small")))
            cat_all(files_in(m.root("large")))
        for round_number in range(ROUNDS):
            shift = round_number % len(mounts)
            for m in mounts[shift:] + mounts[:shift]:
                small = files_in(m.root("small"))
                results.setdefault(("small", m.kind), []).append(costed(lambda: timed(lambda: cat_all(small)), m.proc.pid))
                large = files_in(m.root("large"))
                results.setdefault(("random", m.kind), []).append(random_reads(large, round_number, m.proc.pid))
    finally:
        for m in mounts:
            if m.proc:
                m.__exit__()
    small_count = len(os.listdir(os.path.join(read_bench.lib, "small")))
    targets = kinds[1:]
    print("| warm (%d paired rounds) | passthrough_ll ro,cache=always | %s | %s |" % (
        ROUNDS, " | ".join(targets), " | ".join("%s ÷ passthrough_ll" % t for t in targets)))
    print("|---|" + "---:|" * (1 + 2 * len(targets)))
    for metric, label, per in (("small", "small files read whole", small_count), ("random", "random 4 KiB reads", READS)):
        for index, unit in ((0, "wall"), (1, "CPU")):
            def rate(kind):
                return "%.0f/s" % (per / statistics.median(r[index] for r in results[(metric, kind)]))
            ratios = [statistics.median(p[index] / t[index] for p, t in zip(results[(metric, "pll-tuned")], results[(metric, k)]))
                      for k in targets]
            print("| %s, %s | %s | %s | %s |" % (label, unit, rate("pll-tuned"), " | ".join(rate(k) for k in targets),
                                                " | ".join("%.2f×" % r for r in ratios)))
    load = open("/proc/loadavg").read().split()[:3]
    print("\nRatios: median over rounds of passthrough_ll's time ÷ the target's in the same round. "
          "Load average at the end: %s." % " ".join(load))


if __name__ == "__main__":
    main()
