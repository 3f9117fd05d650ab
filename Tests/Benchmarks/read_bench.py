#!/usr/bin/env python3
"""Read benchmark: direct reads vs libfuse's passthrough_ll (stock and cache=always) vs
photofs library/all, in one run on one generated library. Prints a markdown table of
medians and ratios to direct. Usage: read-bench.sh (which builds everything first)."""
import os, subprocess, sys, time, statistics, tempfile, shutil, json, random
from bench_common import cat_all, pages_per_folio, sh, start_photofs

PHOTOFS = os.environ["PHOTOFS_BIN"]
# Another photofs build measured in the same run as "photofs-baseline" (e.g. before a change).
BASELINE = os.environ.get("PHOTOFS_BASELINE_BIN")
PLL = os.environ["PLL_BIN"]
WORK = os.environ["BENCH_DIR"]
RUNS = int(os.environ.get("RUNS", "5"))
SMALL = int(os.environ.get("SMALL_FILES", "2000"))
MANY = int(os.environ.get("MANY_FILES", "50000"))
LARGE_MB = int(os.environ.get("LARGE_MB", "256"))

lib = os.path.join(WORK, "library")
catalog = os.path.join(WORK, "catalog.sqlite")



def build_library():
    if os.path.exists(os.path.join(WORK, "ready")):
        return
    # Only the library is rebuilt: the passthrough_ll binary lives in WORK too.
    shutil.rmtree(lib, ignore_errors=True)
    shutil.rmtree(os.path.join(WORK, "gen"), ignore_errors=True)
    os.makedirs(lib)
    gen = os.path.join(WORK, "gen")
    sh(PHOTOFS, "generate", gen, "--count", str(MANY), "--seed", "7", stdout=subprocess.DEVNULL)
    flat = os.path.join(lib, "flat")
    os.makedirs(flat)
    n = 0
    for root, _, files in os.walk(gen):
        for f in sorted(files):
            os.rename(os.path.join(root, f), os.path.join(flat, "P%06d.jpg" % n))
            n += 1
    shutil.rmtree(gen)
    small = os.path.join(lib, "small")
    os.makedirs(small)
    for i, name in enumerate(sorted(os.listdir(flat))[:SMALL]):
        shutil.copyfile(os.path.join(flat, name), os.path.join(small, "S%05d.jpg" % i))
    # Large files: a real JPEG followed by random bytes (still a JPEG by its magic).
    large = os.path.join(lib, "large")
    os.makedirs(large)
    head = open(os.path.join(flat, "P000000.jpg"), "rb").read()
    rnd = random.Random(1)
    for i in range(4):
        with open(os.path.join(large, "L%d.jpg" % i), "wb") as f:
            f.write(head)
            left = LARGE_MB * 1024 * 1024 // 4
            while left > 0:
                chunk = min(left, 8 << 20)
                f.write(rnd.randbytes(chunk))
                left -= chunk
    open(os.path.join(WORK, "ready"), "w").close()



def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


class Mount:
    def __init__(self, kind):
        self.kind = kind
        self.mnt = tempfile.mkdtemp(prefix="bench-%s-" % kind, dir=WORK)
        self.proc = None

    def __enter__(self):
        if self.kind.startswith("photofs"):
            self.proc = start_photofs(BASELINE if self.kind == "photofs-baseline" else PHOTOFS, catalog, lib, self.mnt)
        else:
            opts = ["-o", "source=" + lib]
            if self.kind == "pll-cache":
                opts += ["-o", "cache=always"]
            elif self.kind == "pll-tuned":  # tuned for a read-only tree (see warmread_bench.py)
                opts += ["-o", "ro,cache=always"]
            self.proc = subprocess.Popen([PLL, "-f"] + opts + [self.mnt], stderr=subprocess.DEVNULL)
            for _ in range(500):
                if os.path.ismount(self.mnt):
                    break
                time.sleep(0.01)
        return self

    def __exit__(self, *a):
        subprocess.run(["fusermount3", "-u", self.mnt])
        self.proc.wait(timeout=30)
        os.rmdir(self.mnt)

    def root(self, sub):
        if self.kind.startswith("photofs"):
            return os.path.join(self.mnt, "library", "folders", sub)
        return os.path.join(self.mnt, sub)

    def flat(self):
        return os.path.join(self.mnt, "library", "all") if self.kind.startswith("photofs") else os.path.join(self.mnt, "flat")


FAILED = set()  # (kind, metric) pairs whose command reported errors (e.g. EMFILE)


def run_tool(args, tag):
    rc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if rc != 0:
        FAILED.add(tag)


def listing(d, tag=None):
    return lambda: run_tool(["ls", "-f", d], tag)


def find_stat(d, tag=None):
    return lambda: run_tool(["find", d, "-printf", "%s\n"], tag)


COLD = os.geteuid() == 0  # dropping dentries and inodes needs root


def drop_dentries():
    """Drops the kernel's dentries and inodes (not the page cache): the next listing of a
    directory instantiates every entry afresh, on ext4 and through FUSE alike."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("2\n")


def cold(fn):
    """Times `fn` right after the dentries and inodes were dropped."""
    def run():
        drop_dentries()
        return timed(fn)
    return run


def files_in(d):
    return [os.path.join(d, n) for n in sorted(os.listdir(d))]


def measure(kind):
    """Returns {metric: seconds (median)} for one target."""
    res = {}
    def med(xs):
        return statistics.median(xs)
    if kind == "direct":
        large = files_in(os.path.join(lib, "large"))
        small = files_in(os.path.join(lib, "small"))
        # Cached afresh with the kernel's normal readahead: folios keep the size they were
        # made with, so pages cached some other way earlier would change this baseline.
        for path in large:
            pages_per_folio(path, evict=True)
        cat_all(large); cat_all(small)
        res["seq first"] = med([timed(lambda: cat_all(large)) for _ in range(RUNS)])
        res["seq repeat"] = res["seq first"]
        res["small repeat"] = med([timed(lambda: cat_all(small)) for _ in range(RUNS)])
        flat = os.path.join(lib, "flat")
        res["ls -f first"] = res["ls -f repeat"] = med([timed(listing(flat)) for _ in range(RUNS)])
        res["find first"] = res["find repeat"] = med([timed(find_stat(flat)) for _ in range(RUNS)])
        if COLD:
            res["ls -f cold"] = med([cold(listing(flat))() for _ in range(RUNS)])
            res["find cold"] = med([cold(find_stat(flat))() for _ in range(RUNS)])
        return res
    firsts = {"seq first": [], "ls -f first": [], "find first": []}
    repeats = {"seq repeat": [], "small repeat": [], "ls -f repeat": [], "find repeat": []}
    colds = {}
    for _ in range(RUNS):
        with Mount(kind) as m:
            large = files_in(m.root("large"))
            firsts["seq first"].append(timed(lambda: cat_all(large)))
            repeats["seq repeat"].append(timed(lambda: cat_all(large)))
            small = files_in(m.root("small"))
            cat_all(small)
            repeats["small repeat"].append(timed(lambda: cat_all(small)))
            firsts["ls -f first"].append(timed(listing(m.flat(), (kind, "ls -f first"))))
            repeats["ls -f repeat"].append(timed(listing(m.flat(), (kind, "ls -f repeat"))))
            firsts["find first"].append(timed(find_stat(m.flat(), (kind, "find first"))))
            repeats["find repeat"].append(timed(find_stat(m.flat(), (kind, "find repeat"))))
            if COLD:
                # The same flat folder as a library folder (photofs `library/folders/flat`),
                # every dentry and inode dropped first: the cold listing of library views.
                colds.setdefault("ls -f cold", []).append(cold(listing(m.root("flat"), (kind, "ls -f cold")))())
                colds.setdefault("find cold", []).append(cold(find_stat(m.root("flat"), (kind, "find cold")))())
    for d in (firsts, repeats, colds):
        for k, v in d.items():
            res[k] = med(v)
    return res


def small_folio_control(seconds_photofs):
    """Direct repeated reads of the large files once they are cached in 4 KiB folios (each
    evicted, then read page by page with readahead off), the way a FUSE mount caches
    them on this kernel: separates the page-cache effect from photofs's own cost."""
    large = files_in(os.path.join(lib, "large"))
    for path in large:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
            offset = 0
            while os.pread(fd, 4096, offset):
                offset += 4096
        finally:
            os.close(fd)
    folio = pages_per_folio(large[0])
    seconds = statistics.median([timed(lambda: cat_all(large)) for _ in range(RUNS)])
    total = sum(os.path.getsize(p) for p in large)
    for path in large:  # leave them cached the usual way for whatever runs next
        pages_per_folio(path, evict=True)
    return ("Control: direct repeated read with the large files cached in 4 KiB folios (%s pages per folio): "
            "%.0f MB/s; photofs's repeated read is %.2f× that." % (
                "n/a" if folio is None else "%.1f" % folio, total / seconds / 1e6, seconds / seconds_photofs))


def folio_line():
    """How each target's page cache holds a large file once read (see pages_per_folio)."""
    name = sorted(os.listdir(os.path.join(lib, "large")))[0]
    sizes = {"direct": pages_per_folio(os.path.join(lib, "large", name), evict=True)}
    for kind in ("pll-cache", "photofs"):
        with Mount(kind) as m:
            sizes[kind] = pages_per_folio(os.path.join(m.root("large"), name))
    shown = ", ".join("%s %s" % (k, "n/a" if v is None else "%.1f" % v) for k, v in sizes.items())
    return "Page cache after reading %s once, mean 4 KiB pages per folio: %s." % (name, shown)


def main():
    build_library()
    t = time.perf_counter()
    sh(PHOTOFS, "index", lib, "--catalog", catalog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("indexed in %.1fs" % (time.perf_counter() - t), file=sys.stderr)
    kinds = ["direct", "pll", "pll-cache", "photofs"] + (["photofs-baseline"] if BASELINE else [])
    results = {}
    for k in kinds:
        print("measuring %s ..." % k, file=sys.stderr)
        results[k] = measure(k)
    large_bytes = sum(os.path.getsize(p) for p in files_in(os.path.join(lib, "large")))
    metrics = ["seq first", "seq repeat", "small repeat", "ls -f first", "ls -f repeat", "find first", "find repeat"]
    if COLD:
        metrics += ["ls -f cold", "find cold"]
    print("| metric (median of %d) | direct | passthrough_ll | passthrough_ll cache=always | photofs |%s photofs / direct | photofs / passthrough_ll |%s"
          % (RUNS, " baseline |" if BASELINE else "", " baseline / direct |" if BASELINE else ""))
    print("|---|---|---|---|---|---|---|" + ("---|---|" if BASELINE else ""))
    for m in metrics:
        row = []
        for k in kinds:
            s = results[k][m]
            if m.startswith("seq"):
                row.append("%.0f MB/s" % (large_bytes / s / 1e6))
            elif m.startswith("small"):
                row.append("%.0f files/s" % (SMALL / s))
            else:
                row.append("%.3f s" % s)
        ratio = results["direct"][m] / results["photofs"][m]
        vs_pll = results["pll"][m] / results["photofs"][m]
        row = [c + (" (errors)" if (k, m) in FAILED else "") for c, k in zip(row, kinds)]
        line = "| %s | %s | %.2f× | %.2f× |" % (m, " | ".join(row), ratio, vs_pll)
        if BASELINE:
            line += " %.2f× |" % (results["direct"][m] / results["photofs-baseline"][m])
        print(line)
    print("\nLarge files: %d MB in 4 files; small files: %d; flat directory: %d assets." % (large_bytes // 1_000_000, SMALL, MANY))
    print("\n" + folio_line())
    print("\n" + small_folio_control(results["photofs"]["seq repeat"]))
    json.dump(results, open(os.path.join(WORK, "results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
