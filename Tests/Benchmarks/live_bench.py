#!/usr/bin/env python3
"""Live-change benchmark: how long after a change in the library the mount shows it.
Mounts an indexed generated library (photofs in the foreground, readiness pipe), then
RUNS times: copies a photo into a folder and times until its name appears under
library/folders, then deletes it and times until the name is gone. Prints a markdown
table of medians and the worst run, and the daemon's memory after the changes. Usage: live-bench.sh (which builds and generates)."""
import os, shutil, statistics, subprocess, sys, time
from bench_common import start_photofs

PHOTOFS = os.environ["PHOTOFS_BIN"]
LIB = os.environ["LIBRARY"]
CATALOG = os.environ["CATALOG"]
RUNS = int(os.environ.get("RUNS", "5"))
TIMEOUT = 30.0


def deepest_folder(root):
    """The first folder in name order, followed down to a folder without sub-folders."""
    folder = root
    while True:
        subs = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
        if not subs:
            return folder
        folder = os.path.join(folder, subs[0])


def wait_until(condition):
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > TIMEOUT:
            raise SystemExit("live-bench: the mount did not follow within %.0f s" % TIMEOUT)
        time.sleep(0.002)
    return time.perf_counter() - start


def main():
    mnt = os.path.join(os.path.dirname(CATALOG), "live-mnt")
    os.makedirs(mnt, exist_ok=True)
    folder = deepest_folder(LIB)
    relative = os.path.relpath(folder, LIB)
    source = os.path.join(folder, sorted(f for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg")))[0])
    proc = start_photofs(PHOTOFS, CATALOG, LIB, mnt)
    added, removed = [], []
    try:
        assets = sum(1 for _ in os.scandir(os.path.join(mnt, "library", "all")))
        for run in range(RUNS):
            name = "live-bench-%d.jpg" % run
            seen = os.path.join(mnt, "library", "folders", relative, name)
            start = time.perf_counter()
            shutil.copyfile(source, os.path.join(folder, name))
            added.append(time.perf_counter() - start + wait_until(lambda: os.path.exists(seen)))
            time.sleep(0.5)  # let the add's invalidations finish before the next change
            start = time.perf_counter()
            os.unlink(os.path.join(folder, name))
            removed.append(time.perf_counter() - start + wait_until(lambda: not os.path.exists(seen)))
            time.sleep(0.5)
        memory = status_mb(proc.pid, "VmRSS"), status_mb(proc.pid, "VmHWM")
    finally:
        for run in range(RUNS):
            path = os.path.join(folder, "live-bench-%d.jpg" % run)
            if os.path.exists(path):
                os.unlink(path)
        subprocess.run(["fusermount3", "-u", mnt])
        proc.wait(timeout=60)
        os.rmdir(mnt)
    print("| change (%d assets, %d runs) | median | worst | target |" % (assets, RUNS))
    print("|---|---:|---:|---|")
    for label, times in (("file added → listed", added), ("file deleted → gone", removed)):
        print("| %s | %.2f s | %.2f s | ≤ 0.5 s |" % (label, statistics.median(times), max(times)))
    print("\nDaemon memory after the %d changes: VmRSS %.1f MB, VmHWM %.1f MB (MB = 10^6 bytes)." % ((2 * RUNS,) + memory))


def status_mb(pid, field):
    """A memory field of /proc/PID/status, in MB."""
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / 1e6
    return float("nan")


if __name__ == "__main__":
    main()
