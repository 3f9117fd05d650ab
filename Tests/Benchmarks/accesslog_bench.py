#!/usr/bin/env python3
"""Access log on vs off, side by side: three photofs mounts of read-bench's library, one
recording (the default), one with `--no-access-log`, and a control that is a second
`--no-access-log` mount, read in rotation through the same app's view. Each pass drops the
view's cached pages of the files it reads (posix_fadvise DONTNEED), so every pass is a first
read that reaches the daemon. A round reads each mount once, back to back, in a rotating
order; each round gives the ratios on/off and control/off, and the control's ratio is the
noise floor (two identical mounts). Three sessions mount them in rotating order. Prints a
markdown table of the median passes, the median ratios and each daemon's CPU time, and the
per-pass seconds on stderr.
Usage: ACCESS_LOG=compare Tests/Benchmarks/read-bench.sh [WORKDIR]   (env RUNS: rounds, default 21)."""
import json, os, statistics, subprocess, sys, tempfile

import read_bench
from read_bench import SMALL, WORK, catalog, files_in, lib, timed
from bench_common import cat_all, sh, start_photofs

PHOTOFS = os.environ["PHOTOFS_BIN"]
PAIRS = int(os.environ.get("RUNS", "21"))
APP = "bench"
METRICS = ["small first", "seq first"]


def mount(extra):
    """`photofs mount -f` with `extra` options; (process, mountpoint) once ready."""
    mnt = tempfile.mkdtemp(prefix="bench-accesslog-", dir=WORK)
    return start_photofs(PHOTOFS, catalog, lib, mnt, extra), mnt


def unmount(proc, mnt):
    subprocess.run(["fusermount3", "-u", mnt])
    proc.wait(timeout=60)
    os.rmdir(mnt)


def evict(paths):
    """Drops the cached pages of `paths` (the mount's own pages), so the next read asks the daemon."""
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def view(mnt):
    names = sorted(os.listdir(os.path.join(mnt, "apps", APP)))
    small = [os.path.join(mnt, "apps", APP, n) for n in names if n.startswith("S")]
    large = [os.path.join(mnt, "apps", APP, n) for n in names if n.startswith("L")]
    if len(small) != SMALL or len(large) != 4:
        raise SystemExit("the app view holds %d small and %d large files" % (len(small), len(large)))
    return small, large


def daemon_cpu(pid):
    """Seconds of CPU (user + system, all threads) the process has used so far."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_pass(files):
    small, large = files
    evict(small)
    first_small = timed(lambda: cat_all(small))
    evict(large)
    first_large = timed(lambda: cat_all(large))
    return {"small first": first_small, "seq first": first_large}


def main():
    read_bench.build_library()
    sh(PHOTOFS, "index", lib, "--catalog", catalog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    apps = subprocess.run([PHOTOFS, "app", "list", "--catalog", catalog], capture_output=True, text=True).stdout
    if APP not in apps.split():
        sh(PHOTOFS, "app", "add", APP, "--location", "keep", "--limit", "0", "--catalog", catalog, stdout=subprocess.DEVNULL)
        sh(PHOTOFS, "select", APP, "--where", "folder:small OR folder:large", "--catalog", catalog, stdout=subprocess.DEVNULL)
    large_bytes = sum(os.path.getsize(p) for p in files_in(os.path.join(lib, "large")))
    kinds = {"on": [], "off": ["--no-access-log"], "control": ["--no-access-log"]}
    samples = {k: {m: [] for m in METRICS} for k in kinds}
    ratios = {k: {m: [] for m in METRICS} for k in ("on", "control")}
    cpu = {k: 0.0 for k in kinds}
    # Three sessions, each mounting in another order, so no mount is always the eldest.
    orders = [["on", "off", "control"], ["off", "control", "on"], ["control", "on", "off"]]
    for session, mounted in enumerate(orders):
        mounts = {k: mount(kinds[k]) for k in mounted}
        try:
            files = {k: view(mnt) for k, (_, mnt) in mounts.items()}
            for kind in mounted:  # warm the source files and the daemons
                one_pass(files[kind])
            before = {k: daemon_cpu(proc.pid) for k, (proc, _) in mounts.items()}
            for pair in range(session * PAIRS // 3, (session + 1) * PAIRS // 3 if session < 2 else PAIRS):
                order = mounted[pair % 3:] + mounted[:pair % 3]
                got = {}
                for kind in order:
                    got[kind] = one_pass(files[kind])
                    for m in METRICS:
                        samples[kind][m].append(got[kind][m])
                for k in ratios:
                    for m in METRICS:
                        ratios[k][m].append(got["off"][m] / got[k][m])
                print("round %d/%d" % (pair + 1, PAIRS), file=sys.stderr)
            for k, (proc, _) in mounts.items():
                cpu[k] += daemon_cpu(proc.pid) - before[k]
        finally:
            for proc, mnt in mounts.values():
                unmount(proc, mnt)
    log = subprocess.run([PHOTOFS, "log", "--json", APP, "--catalog", catalog], capture_output=True, text=True).stdout
    reads = sum(e["reads"] for e in json.loads(log))
    print("| metric (%d rounds, through apps/%s/, first reads) | log on | log off | control: log off again | "
          "on / off | control / off |" % (PAIRS, APP))
    print("|---|---|---|---|---|---|")
    for m in METRICS:
        size, unit = (large_bytes / 1e6, "MB/s") if m.startswith("seq") else (SMALL, "files/s")
        speed = ["%.0f %s" % (size / statistics.median(samples[k][m]), unit) for k in kinds]
        print("| %s, median | %s | %.3f× | %.3f× |" % (m, " | ".join(speed), statistics.median(ratios["on"][m]),
                                                      statistics.median(ratios["control"][m])))
    print("| daemon CPU (user + system), all rounds | %s | %.3f× | %.3f× |" % (
        " | ".join("%.2f s" % cpu[k] for k in kinds), cpu["off"] / cpu["on"], cpu["off"] / cpu["control"]))
    print("\n%d small files and %d MB in 4 large files per pass. X / off is the median over rounds of off's time over X's "
          "time in the same round (speed relative to the log-off mount; 1.000× = the same; for CPU, off's CPU over X's). "
          "The control is a second log-off mount: how far two identical mounts differ here is the noise floor. "
          "The log holds %d READs of apps/%s today." % (SMALL, large_bytes // 1_000_000, reads, APP))
    for m in METRICS:
        print("%s seconds, on: %s; off: %s" % (m, " ".join("%.3f" % x for x in samples["on"][m]),
                                              " ".join("%.3f" % x for x in samples["off"][m])), file=sys.stderr)
    json.dump({"samples": samples, "ratios": ratios}, open(os.path.join(WORK, "accesslog-results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
