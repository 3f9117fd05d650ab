#!/usr/bin/env python3
"""Scale benchmark (see scale-bench.sh, which builds, generates and caches the library)."""
import os, shutil, statistics, subprocess, sys, time
from bench_common import start_photofs

PHOTOFS = os.environ["PHOTOFS_BIN"]
LIB = os.environ["LIBRARY"]
CATALOG = os.environ["CATALOG"]
FLAT = os.environ["FLAT"]
COUNT = int(os.environ["COUNT"])
RUNS = int(os.environ.get("RUNS", "3"))
TIMEOUT = 300.0


def status_mb(pid, field):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / 1e6
    return float("nan")


def drop_caches(level="3"):
    """Drops the page, dentry and inode caches (`level` 2: the dentries and inodes, and with
    them the pages of files nobody holds open, as a mount at login meets the library and
    its catalog); False where not permitted or COLD=0 (on a machine shared with other
    measurements, dropping every cache disturbs them)."""
    if os.environ.get("COLD", "1") == "0":
        return False
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write(level + "\n")
        return True
    except OSError:
        return False


def timed(argv):
    start = time.perf_counter()
    out = subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout
    return time.perf_counter() - start, out.count(b"\n")


def wait_until(condition):
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > TIMEOUT:
            raise SystemExit("scale-bench: the mount did not follow within %.0f s" % TIMEOUT)
    return time.perf_counter() - start


def picker(mnt, text):
    fd = os.open(mnt + "/.picker", os.O_RDWR | os.O_TRUNC)
    try:
        os.write(fd, text.encode())
    except OSError as e:
        raise SystemExit("picker write failed: %s: %s" % (e, os.pread(fd, 4096, 0).decode(errors="replace")))
    finally:
        os.close(fd)


def deepest_folder(root):
    folder = root
    while True:
        subs = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
        if not subs:
            return folder
        folder = os.path.join(folder, subs[0])


def first_select(mnt, app, asset):
    """The first write to `.picker` after the mount was ready: one select into `app` (made
    before the mount), timed until the app's view lists the file; milliseconds."""
    view = mnt + "/apps/" + app
    start = time.perf_counter()
    picker(mnt, "select %s %s\n" % (app, asset))
    wait_until(lambda: len(os.listdir(view)) > 0)
    return (time.perf_counter() - start) * 1000


def startup_round(mnt, ids, run, add, evicted, photofs=PHOTOFS, name=""):
    """One mount of the startup rows: mount → ready (with the library's and the catalog's
    inodes evicted first when `evicted`), the first select right after, unmount. `name`
    labels the rows of a second binary (`PHOTOFS_BIN_B`)."""
    app = "first%d%s" % (run, "c" if evicted else "w")
    subprocess.run([photofs, "app", "add", app, "--location", "keep", "--catalog", CATALOG], check=True,
                   stdout=subprocess.DEVNULL)
    label = (", inodes evicted" if evicted else ", warm") + name
    if evicted and not drop_caches("2"):
        return False
    start = time.perf_counter()
    proc = start_photofs(photofs, CATALOG, LIB, mnt)
    add("mount → ready%s (s)" % label, time.perf_counter() - start)
    try:
        add("first select after ready%s (ms)" % label, first_select(mnt, app, ids[3000 + run]))
        start = time.perf_counter()
        picker(mnt, "select %s %s\n" % (app, ids[3100 + run]))
        wait_until(lambda: len(os.listdir(mnt + "/apps/" + app)) > 1)
        add("second select%s (ms)" % label, (time.perf_counter() - start) * 1000)
        picker(mnt, "app remove %s\n" % app)
    finally:
        subprocess.run(["fusermount3", "-u", mnt])
        proc.wait(timeout=300)
    return True


def main():
    mnt = os.path.join(os.path.dirname(CATALOG), "scale-mnt")
    os.makedirs(mnt, exist_ok=True)
    ids = subprocess.run([PHOTOFS, "ls", "--catalog", CATALOG], stdout=subprocess.PIPE, check=True).stdout.decode().split("\n")
    ids = [line.split("\t")[0] for line in ids if line]
    rows = {}
    add = lambda key, value: rows.setdefault(key, []).append(value)
    hwm = []
    cold = True
    if os.environ.get("ROWS") == "startup":
        # Only the startup rows, STARTUP_RUNS rounds of a mount with the inodes evicted and
        # a warm one, alternated.
        # PHOTOFS_BIN_B: a second binary (the build before, say), its rounds alternated
        # with the first's on the same catalog, its rows labelled with its file name.
        other = os.environ.get("PHOTOFS_BIN_B")
        for run in range(int(os.environ.get("STARTUP_RUNS", "9"))):
            cold = startup_round(mnt, ids, run, add, evicted=True) and cold
            startup_round(mnt, ids, run, add, evicted=False)
            if other:
                name = " (%s)" % os.path.basename(other)
                startup_round(mnt, ids, run, add, evicted=True, photofs=other, name=name)
                startup_round(mnt, ids, run, add, evicted=False, photofs=other, name=name)
        os.rmdir(mnt)
        print_table(rows, len(ids), int(os.environ.get("STARTUP_RUNS", "9")), cold, [])
        return
    for run in range(RUNS):
        cold = startup_round(mnt, ids, run, add, evicted=True) and cold
        startup_round(mnt, ids, run, add, evicted=False)
        start = time.perf_counter()
        proc = start_photofs(PHOTOFS, CATALOG, LIB, mnt)
        add("mount → ready (s)", time.perf_counter() - start)
        try:
            add("VmRSS ready (MB)", status_mb(proc.pid, "VmRSS"))
            sub = os.path.relpath(deepest_folder(LIB), LIB)
            listings = (
                ("ls -f", "library/all", ["ls", "-f"], "library/all", FLAT),
                ("find", "library/all", ["find"], "library/all", FLAT),
                ("ls -f", "one folder", ["ls", "-f"], "library/folders/" + sub, os.path.join(LIB, sub)),
                ("find", "library/folders", ["find"], "library/folders", LIB),
            )
            for tool, label, argv, view, direct in listings:
                tail = ["-printf", "%s\n"] if tool == "find" else []
                mounted_argv = argv + [os.path.join(mnt, view)] + tail
                direct_argv = argv + [direct] + tail
                # first: the first pass over the view in this mount (the daemon answers every
                # name), against a pass over the direct tree as it happens to be cached.
                # warm: after one untimed pass on each side, so the kernel's caches hold
                # the names, attributes and listings (what a repeated walk costs).
                # cold: after dropping every cache, each side (COLD=1 and root only).
                for state in ("first", "warm", "cold"):
                    if state == "warm":
                        timed(mounted_argv)
                        timed(direct_argv)
                    if state == "cold":
                        cold = drop_caches() and cold
                        if not cold:
                            continue
                    mounted, n1 = timed(mounted_argv)
                    if state == "cold":
                        drop_caches()
                    baseline, n2 = timed(direct_argv)
                    add("%s %s %s: photofs/direct speed" % (tool, label, state), baseline / mounted)
                    add("%s %s %s: photofs entries/s" % (tool, label, state), n1 / mounted)
            add("VmRSS after listings (MB)", status_mb(proc.pid, "VmRSS"))
            # Select / deselect: one app with 1,000 grants, then single writes.
            picker(mnt, "app add scale%d --location keep\n" % run)
            picker(mnt, "select scale%d %s\n" % (run, " ".join(ids[:1000])))
            view = mnt + "/apps/scale%d" % run
            for asset in ids[2000 + run * 5:2000 + run * 5 + 5]:
                before = set(os.listdir(view))
                start = time.perf_counter()
                picker(mnt, "select scale%d %s\n" % (run, asset))
                wait_until(lambda: len(os.listdir(view)) > len(before))
                add("select (ms)", (time.perf_counter() - start) * 1000)
                path = view + "/" + (set(os.listdir(view)) - before).pop()
                start = time.perf_counter()
                picker(mnt, "deselect scale%d %s\n" % (run, asset))
                wait_until(lambda: not os.path.exists(path))
                add("deselect (ms)", (time.perf_counter() - start) * 1000)
            picker(mnt, "app remove scale%d\n" % run)
            # A live add and delete.
            folder = deepest_folder(LIB)
            relative = os.path.relpath(folder, LIB)
            source = os.path.join(folder, sorted(f for f in os.listdir(folder) if f.lower().endswith(".jpg"))[0])
            name = "scale-bench-%d-%d.jpg" % (os.getpid(), run)
            seen = os.path.join(mnt, "library", "folders", relative, name)
            start = time.perf_counter()
            shutil.copyfile(source, os.path.join(folder, name))
            wait_until(lambda: os.path.exists(seen))
            add("live add (s)", time.perf_counter() - start)
            time.sleep(0.5)
            start = time.perf_counter()
            os.unlink(os.path.join(folder, name))
            wait_until(lambda: not os.path.exists(seen))
            add("live delete (s)", time.perf_counter() - start)
            time.sleep(0.5)
            add("VmRSS at rest after changes (MB)", status_mb(proc.pid, "VmRSS"))
            hwm.append(status_mb(proc.pid, "VmHWM"))
        finally:
            subprocess.run(["fusermount3", "-u", mnt])
            proc.wait(timeout=120)
        start = time.perf_counter()
        subprocess.run([PHOTOFS, "index", "--quiet", "--catalog", CATALOG, LIB], check=True)
        add("re-index, unchanged (s)", time.perf_counter() - start)
    os.rmdir(mnt)
    print_table(rows, len(ids), RUNS, cold, hwm)


def print_table(rows, count, runs, cold, hwm):
    print("### Scale benchmark: %d assets, %d cores, medians of %d runs, load %s%s" % (
        count, os.cpu_count(), runs, " ".join("%.2f" % v for v in os.getloadavg()),
        "" if cold else " (cold rows skipped: drop_caches not permitted or COLD=0)"))
    print()
    print("| metric | median | runs |")
    print("|---|---:|---|")
    for key, values in rows.items():
        print("| %s | %.3f | %s |" % (key, statistics.median(values), " ".join("%.3f" % v for v in values)))
    if hwm:
        print("| VmHWM over the run (MB) | %.1f | %s |" % (max(hwm), " ".join("%.1f" % v for v in hwm)))


if __name__ == "__main__":
    main()
