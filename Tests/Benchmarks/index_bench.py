"""Index benchmark body (see index-bench.sh): photofs index against exiftool -fast on the
same libraries in one run, warm (every file in the page cache) and cold (caches dropped
before each command, root only), with the bytes each command read per file from
/proc/PID/io (`rchar`: bytes asked of read calls; `read_bytes`: bytes fetched from the disk).
Prints markdown on stdout."""
import os, subprocess, sys, tempfile, time

# Fresh warm indexes per library, median reported (index-bench.sh's RUNS).
RUNS = int(os.environ.get("RUNS", "3"))


def measure(argv, log):
    """Runs argv to its end; returns (seconds, rchar, read_bytes, cpu seconds): the wall time
    of the whole process (start, catalog creation, walk, analysis, writes, the checkpoint at
    exit), the I/O read from /proc/PID/io just before the process is reaped (the catalog's
    own reads included), the CPU (user + system, all threads) from its rusage."""
    with open(log, "wb") as out:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        seconds = time.monotonic() - start
        io = {}
        with open("/proc/%d/io" % proc.pid) as f:
            for line in f:
                key, value = line.split(":")
                io[key] = int(value)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("index-bench: %s exited %d (see %s)" % (argv[0], proc.returncode, log))
    return seconds, io["rchar"], io["read_bytes"], usage.ru_utime + usage.ru_stime


def drop_caches():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def warm(library):
    subprocess.run("find '%s' -type f -print0 | xargs -0 cat > /dev/null" % library, shell=True, check=True)


def library_facts(library):
    files, size = 0, 0
    for root, _, names in os.walk(library):
        for name in names:
            if not name.startswith("."):
                files += 1
                size += os.path.getsize(os.path.join(root, name))
    return files, size


def bench(photofs, library, label, work, cold):
    files, size = library_facts(library)
    rows = []
    modes = ["warm"] + (["cold"] if cold else [])
    results = {}
    for mode in modes:
        catalog_dir = tempfile.mkdtemp(dir=work, prefix="catalog.")
        catalog = catalog_dir + "/catalog.sqlite"
        if mode == "warm":
            warm(library)
        else:
            drop_caches()
        first = measure([photofs, "index", library, "--catalog", catalog], work + "/index-first-%s.log" % mode)
        if mode == "warm" and RUNS > 1:
            # A fresh index takes about a second: the median of RUNS fresh catalogs (the last
            # one kept for the unchanged run), so one slow flush does not decide the ratio.
            firsts = [first]
            for _ in range(RUNS - 1):
                subprocess.run(["rm", "-rf", catalog_dir])
                os.mkdir(catalog_dir, 0o700)
                firsts.append(measure([photofs, "index", library, "--catalog", catalog], work + "/index-first-%s.log" % mode))
            first = sorted(firsts)[len(firsts) // 2]
        if mode == "cold":
            drop_caches()
        again = measure([photofs, "index", library, "--catalog", catalog], work + "/index-again-%s.log" % mode)
        if mode == "warm":
            warm(library)
        else:
            drop_caches()
        exif = measure(["exiftool", "-fast", "-json", "-r", library], work + "/exiftool-%s.log" % mode)
        subprocess.run(["rm", "-rf", catalog_dir])
        results[mode] = (first, again, exif)
        for name, r in (("`photofs index` (empty catalog)", first), ("`photofs index` (again, unchanged)", again),
                        ("`exiftool -fast -json -r`", exif)):
            rows.append("| %s | %s | %.2f | %.2f | %.0f | %.1f | %.1f |" % (
                mode, name, r[0], r[3], files / r[0], r[1] / files / 1024, r[2] / files / 1024))
    print("### %s: %d files, %.1f GiB" % (label, files, size / 2**30))
    print()
    print("| cache | command | seconds | CPU seconds | files/s | KiB asked per file (rchar) | KiB from disk per file (read_bytes) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(row)
    print()
    for mode in modes:
        first, _, exif = results[mode]
        print("%s: photofs index is **%.1f×** `exiftool -fast` (wall), %.1f× in CPU time." % (
            mode.capitalize(), exif[0] / first[0], exif[3] / first[3]))
    print()


def paired(photofs, library, work, rounds, baseline=""):
    """ROUNDS paired rounds on the warm library: a fresh index into an empty catalog and
    `exiftool -fast -json -r`, in alternating order (photofs first in odd rounds), and with
    BASELINE_BIN a second photofs build in the same round; the ratio per round, the median."""
    files, size = library_facts(library)
    builds = [("photofs", photofs)] + ([("baseline", baseline)] if baseline else [])
    print("### Paired rounds: %d files, %.1f MiB, warm, %d rounds" % (files, size / 2**20, rounds))
    print()
    head = " | ".join("`%s` wall / CPU s" % name for name, _ in builds)
    print("| round | load | %s | exiftool wall / CPU s | %s |" % (head, " | ".join("ratio %s" % name for name, _ in builds)))
    print("|---:|---:|" + "---:|" * (2 * len(builds) + 1))
    ratios = {name: [] for name, _ in builds}
    for n in range(rounds):
        load = os.getloadavg()[0]
        warm(library)
        results = {}
        order = builds + [("exiftool", None)]
        for name, binary in (order if n % 2 == 0 else list(reversed(order))):
            if binary is None:
                results[name] = measure(["exiftool", "-fast", "-json", "-r", library], work + "/exiftool-paired.log")
                continue
            catalog_dir = tempfile.mkdtemp(dir=work, prefix="catalog.")
            results[name] = measure([binary, "index", "--quiet", library, "--catalog", catalog_dir + "/catalog.sqlite"],
                                    work + "/index-paired.log")
            subprocess.run(["rm", "-rf", catalog_dir])
        exif = results["exiftool"]
        for name, _ in builds:
            ratios[name].append(exif[0] / results[name][0])
        print("| %d | %.1f | %s | %.2f / %.2f | %s |" % (
            n + 1, load, " | ".join("%.2f / %.2f" % (results[name][0], results[name][3]) for name, _ in builds),
            exif[0], exif[3], " | ".join("%.1f×" % ratios[name][-1] for name, _ in builds)))
    print()
    for name, _ in builds:
        values = sorted(ratios[name])
        print("%s: median **%.1f×** `exiftool -fast` (wall) over %d paired rounds, lowest %.1f×, highest %.1f×." % (
            name, values[len(values) // 2], rounds, values[0], values[-1]))
    print("Load average %.1f at the end." % os.getloadavg()[0])
    print()


def scale(photofs, library, work):
    """Re-index of an unchanged large library (warm), three runs: wall and CPU seconds."""
    files, _ = library_facts(library)
    catalog_dir = tempfile.mkdtemp(dir=work, prefix="catalog.")
    catalog = catalog_dir + "/catalog.sqlite"
    first = measure([photofs, "index", library, "--catalog", catalog], work + "/scale-first.log")
    runs = [measure([photofs, "index", library, "--catalog", catalog], work + "/scale-again.log") for _ in range(3)]
    subprocess.run(["rm", "-rf", catalog_dir])
    print("### Re-index of an unchanged library of %d files (`photofs generate --count %d`)" % (files, files))
    print()
    print("First index: %.1f s. Unchanged re-index, three runs: %s s wall, %s s CPU (user + system)." % (
        first[0], " / ".join("%.2f" % r[0] for r in runs), " / ".join("%.2f" % r[3] for r in runs)))
    print()


def reindex_existing(photofs, library, catalog, work, runs=3):
    """Re-index of an unchanged, already indexed library (scale-bench's cache) into a copy of
    its catalog (the original stays as it is): wall and CPU seconds per run, warm."""
    files, _ = library_facts(library)
    catalog_dir = tempfile.mkdtemp(dir=work, prefix="catalog.")
    copy = catalog_dir + "/catalog.sqlite"
    subprocess.run(["cp", catalog, copy], check=True)
    measure([photofs, "index", library, "--catalog", copy], work + "/reindex-warmup.log")  # warms the tree and the copy
    results = [measure([photofs, "index", library, "--catalog", copy], work + "/reindex.log") for _ in range(runs)]
    subprocess.run(["rm", "-rf", catalog_dir])
    print("### Re-index of an unchanged, indexed library of %d files (%s)" % (files, os.path.basename(library)))
    print()
    print("Unchanged re-index, %d runs after one warm-up: %s s wall, %s s CPU (user + system)." % (
        runs, " / ".join("%.2f" % r[0] for r in results), " / ".join("%.2f" % r[3] for r in results)))
    print()


def main():
    photofs, work, small, real = sys.argv[1:5]
    large = sys.argv[5] if len(sys.argv) > 5 else ""
    existing = sys.argv[6] if len(sys.argv) > 6 else ""
    cold = os.geteuid() == 0
    print("Machine: %d cores, shared with other work (ratios matter, not seconds); %s." % (
        os.cpu_count(), "cold runs drop the page cache before each command" if cold else "not root: warm runs only"))
    print()
    rounds = int(os.environ.get("PAIRED_ROUNDS", "0"))
    if small and rounds > 0:
        paired(photofs, small, work, rounds, os.environ.get("BASELINE_BIN", ""))
    if os.environ.get("PAIRED_ONLY", "0") == "1":
        return
    if small:
        bench(photofs, small, "Small generated JPEGs (`photofs generate`)", work, cold)
    if real:
        bench(photofs, real, "Realistic library (`real_library.py`: camera-size JPEGs with full EXIF, HEIC, large MP4)", work, cold)
    if large:
        scale(photofs, large, work)
    if existing:
        library, catalog = existing.split(":", 1)
        reindex_existing(photofs, library, catalog, work)


if __name__ == "__main__":
    main()
