#!/usr/bin/env python3
"""Access log on vs off: first reads (small files and large sequential files) and repeated
small-file reads through an app's view, photofs with and without `--no-access-log`, on
read-bench's library, alternating on and off within each run so both see the same machine
load. Prints a markdown table of medians and the off/on ratio.
Usage: ACCESS_LOG=compare Tests/Benchmarks/read-bench.sh [WORKDIR] (which builds first)."""
import os, subprocess, statistics, sys, tempfile, time

import read_bench
from read_bench import RUNS, SMALL, WORK, catalog, files_in, lib, timed
from bench_common import cat_all, sh

PHOTOFS = os.environ["PHOTOFS_BIN"]
APP = "bench"


def mount(extra):
    """`photofs mount -f` with `extra` options; (process, mountpoint) once ready."""
    mnt = tempfile.mkdtemp(prefix="bench-accesslog-", dir=WORK)
    r, w = os.pipe()
    proc = subprocess.Popen([PHOTOFS, "mount", "-f", "--ready-fd", str(w), "--catalog", catalog] + extra + [lib, mnt],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    ready = os.read(r, 100)
    os.close(r)
    if not ready:
        raise SystemExit("photofs did not become ready")
    return proc, mnt


def unmount(proc, mnt):
    subprocess.run(["fusermount3", "-u", mnt])
    proc.wait(timeout=60)
    os.rmdir(mnt)


def one_run(extra):
    """Seconds for: every small file read first, again (cached), the large files read first."""
    proc, mnt = mount(extra)
    try:
        view = os.path.join(mnt, "apps", APP)
        names = sorted(os.listdir(view))
        small = [os.path.join(view, n) for n in names if n.startswith("S")]
        large = [os.path.join(view, n) for n in names if n.startswith("L")]
        if len(small) != SMALL or len(large) != 4:
            raise SystemExit("the app view holds %d small and %d large files" % (len(small), len(large)))
        result = {"small first": timed(lambda: cat_all(small)), "small repeat": timed(lambda: cat_all(small)),
                  "seq first": timed(lambda: cat_all(large))}
    finally:
        unmount(proc, mnt)
    return result


def main():
    read_bench.build_library()
    sh(PHOTOFS, "index", lib, "--catalog", catalog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    apps = subprocess.run([PHOTOFS, "app", "list", "--catalog", catalog], capture_output=True, text=True).stdout
    if APP not in apps.split():
        sh(PHOTOFS, "app", "add", APP, "--location", "keep", "--limit", "0", "--catalog", catalog, stdout=subprocess.DEVNULL)
        sh(PHOTOFS, "select", APP, "--where", "folder:small OR folder:large", "--catalog", catalog, stdout=subprocess.DEVNULL)
    large_bytes = sum(os.path.getsize(p) for p in files_in(os.path.join(lib, "large")))
    kinds = {"on": [], "off": ["--no-access-log"]}
    samples = {k: {} for k in kinds}
    one_run([])  # warm the source files in the page cache and the catalog
    for run in range(RUNS):
        order = ["on", "off"] if run % 2 == 0 else ["off", "on"]
        for kind in order:
            print("run %d: access log %s ..." % (run + 1, kind), file=sys.stderr)
            for metric, seconds in one_run(kinds[kind]).items():
                samples[kind].setdefault(metric, []).append(seconds)
    print("| metric (median of %d, through apps/%s/) | access log on | access log off (--no-access-log) | on / off |" % (RUNS, APP))
    print("|---|---|---|---|")
    for metric in ["small first", "seq first", "small repeat"]:
        on = statistics.median(samples["on"][metric])
        off = statistics.median(samples["off"][metric])
        if metric.startswith("seq"):
            cells = ["%.0f MB/s" % (large_bytes / on / 1e6), "%.0f MB/s" % (large_bytes / off / 1e6)]
        else:
            cells = ["%.0f files/s" % (SMALL / on), "%.0f files/s" % (SMALL / off)]
        print("| %s | %s | %s | %.3f× |" % (metric, cells[0], cells[1], off / on))
    print("\n%d small files, %d MB in 4 large files; on / off above 1 means the log made no run slower." % (SMALL, large_bytes // 1_000_000))


if __name__ == "__main__":
    main()
