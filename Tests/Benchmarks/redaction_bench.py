#!/usr/bin/env python3
"""Redaction read benchmark: the same GPS JPEGs read through a `strip` app view (GPS
patched out on every read), a `--metadata private` app view (GPS and identity patched out,
the plan overlaid from its stored form) and library/all (the original bytes), in one run.

The library: LARGE_FILES real JPEGs of about 10 MB each (ImageMagick noise pictures, each
with its own seed, given the EXIF and XMP of a `photofs generate` photo with GPS by
exiftool), and SMALL_FILES small GPS JPEGs from `photofs generate`. Each run mounts
afresh, so the first read of each view starts with an empty page cache for the mount (the
library files themselves are kept warm in the page cache, so both views read the same
warm source). The views are read file by file in turn (library, strip, private for one
file, the reverse order for the next), each read timed on its own, so all see the same
moment's noise from other processes; whole passes one view after the other differed by up
to 10% from run to run on this shared machine. Prints a markdown table of medians and the
ratios strip / library/all and private / library/all. Usage: redaction-bench.sh (builds
first)."""
import json, os, shutil, statistics, subprocess, sys, tempfile, time
from bench_common import cat_all, sh, start_photofs

PHOTOFS = os.environ["PHOTOFS_BIN"]
WORK = os.environ["BENCH_DIR"]
RUNS = int(os.environ.get("RUNS", "7"))
PASSES = int(os.environ.get("PASSES", "3"))  # repeated (cached) passes per run
LARGE = int(os.environ.get("LARGE_FILES", "24"))
SMALL = int(os.environ.get("SMALL_FILES", "2000"))

lib = os.path.join(WORK, "library")
catalog = os.path.join(WORK, "catalog.sqlite")
stamp = os.path.join(WORK, "ready-%d-%d" % (LARGE, SMALL))



def gps_photos(directory):
    """The generated photos that exiftool says carry a GPS latitude (paths only)."""
    out = subprocess.run(["exiftool", "-q", "-r", "-if", "$GPSLatitude", "-p", "$Directory/$FileName", directory],
                         capture_output=True, text=True).stdout
    return sorted(line for line in out.splitlines() if line)


def build_library():
    if os.path.exists(stamp):
        return
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    gen = os.path.join(WORK, "gen")
    sh(PHOTOFS, "generate", gen, "--count", str(SMALL * 5 // 2 + 50), "--seed", "11", stdout=subprocess.DEVNULL)
    donors = gps_photos(gen)
    if len(donors) < SMALL:
        raise SystemExit("the generator gave only %d GPS photos" % len(donors))
    small = os.path.join(lib, "small")
    os.makedirs(small)
    for i, path in enumerate(donors[:SMALL]):
        shutil.copyfile(path, os.path.join(small, "S%05d.jpg" % i))
    large = os.path.join(lib, "large")
    os.makedirs(large)
    for i in range(LARGE):
        target = os.path.join(large, "L%03d.jpg" % i)
        sh("convert", "-seed", str(1000 + i), "-size", "3000x2000", "xc:", "+noise", "Random", "-quality", "92", target)
        sh("exiftool", "-q", "-overwrite_original", "-TagsFromFile", donors[i % len(donors)], "-all:all", target)
    shutil.rmtree(gen)
    sh(PHOTOFS, "index", lib, "--catalog", catalog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sh(PHOTOFS, "app", "add", "strip", "--location", "strip", "--catalog", catalog, stdout=subprocess.DEVNULL)
    sh(PHOTOFS, "select", "strip", "--where", "type:image", "--catalog", catalog, stdout=subprocess.DEVNULL)
    open(stamp, "w").close()


def ensure_private_app():
    """The `private` app (added to a library built before it existed; errors when it is
    there already are expected and ignored)."""
    for args in (["app", "add", "private", "--location", "strip", "--metadata", "private"],
                 ["select", "private", "--where", "type:image"]):
        subprocess.run([PHOTOFS] + args + ["--catalog", catalog], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)



def interleaved(files_by_kind, kinds):
    """Reads file i of every view in turn (order alternating per file); seconds per view."""
    spent = {k: 0.0 for k in kinds}
    count = len(files_by_kind[kinds[0]])
    for i in range(count):
        for k in (kinds if i % 2 == 0 else kinds[::-1]):
            t = time.perf_counter()
            cat_all([files_by_kind[k][i]])
            spent[k] += time.perf_counter() - t
    return spent


class Mount:
    def __enter__(self):
        self.mnt = tempfile.mkdtemp(prefix="mnt-", dir=WORK)
        self.proc = start_photofs(PHOTOFS, catalog, lib, self.mnt)
        return self

    def __exit__(self, *a):
        subprocess.run(["fusermount3", "-u", self.mnt])
        self.proc.wait(timeout=30)
        os.rmdir(self.mnt)


def views(m, names):
    """The same files in both views, by name (app views and library/all both use the file name)."""
    return {
        "library/all": [os.path.join(m.mnt, "library", "all", n) for n in names],
        "apps/strip": [os.path.join(m.mnt, "apps", "strip", n) for n in names],
        "apps/private": [os.path.join(m.mnt, "apps", "private", n) for n in names],
    }


def check_redacted(m, names):
    """Every strip-view file has the original's size and differs in its first 64 KiB (the
    GPS is patched); the library view serves the original exactly."""
    for n in names:
        original = open(os.path.join(lib, "large" if n.startswith("L") else "small", n), "rb").read()
        served = open(os.path.join(m.mnt, "library", "all", n), "rb").read()
        for app in ("strip", "private"):
            redacted = open(os.path.join(m.mnt, "apps", app, n), "rb").read()
            if served != original or len(redacted) != len(original) or redacted[:65536] == original[:65536]:
                raise SystemExit("%s: the %s view is not a redacted copy of the original" % (n, app))


def main():
    build_library()
    ensure_private_app()
    large = sorted(os.listdir(os.path.join(lib, "large")))
    small = sorted(os.listdir(os.path.join(lib, "small")))
    large_bytes = sum(os.path.getsize(os.path.join(lib, "large", n)) for n in large)
    small_bytes = sum(os.path.getsize(os.path.join(lib, "small", n)) for n in small)
    # The source stays warm: both views then read the same cached library files.
    cat_all([os.path.join(lib, "large", n) for n in large] + [os.path.join(lib, "small", n) for n in small])
    with Mount() as m:
        check_redacted(m, large + small[:50])
    kinds = ["library/all", "apps/strip", "apps/private"]
    samples = {(k, m): [] for k in kinds for m in ["large first", "large repeat", "small first", "small repeat"]}
    for run in range(RUNS):
        print("run %d/%d ..." % (run + 1, RUNS), file=sys.stderr)
        order = kinds if run % 2 == 0 else kinds[::-1]
        with Mount() as m:
            big = views(m, large)
            little = views(m, small)
            for files, metric in ((big, "large"), (little, "small")):
                first = interleaved(files, order)
                for k in kinds:
                    samples[(k, metric + " first")].append(first[k])
                # Repeated reads: the pages are cached now; the mean of PASSES passes.
                spent = {k: 0.0 for k in kinds}
                for _ in range(PASSES):
                    for k, seconds in interleaved(files, order).items():
                        spent[k] += seconds
                for k in kinds:
                    samples[(k, metric + " repeat")].append(spent[k] / PASSES)
    print("| metric (median of %d runs) | library/all | apps/strip | apps/private | strip / library | private / library "
          "| median of per-run ratios (strip, private) |" % RUNS)
    print("|---|---|---|---|---|---|---|")
    results = {}
    for metric in ["large first", "large repeat", "small first", "small repeat"]:
        lib_s = statistics.median(samples[("library/all", metric)])
        strip_s = statistics.median(samples[("apps/strip", metric)])
        private_s = statistics.median(samples[("apps/private", metric)])
        if metric.startswith("large"):
            cells = ["%.0f MB/s" % (large_bytes / s / 1e6) for s in (lib_s, strip_s, private_s)]
        else:
            cells = ["%.0f files/s (%.0f MB/s)" % (len(small) / s, small_bytes / s / 1e6) for s in (lib_s, strip_s, private_s)]
        # The views of one run share that run's noise (other processes, the CPU clock).
        paired = {k: statistics.median(a / b for a, b in zip(samples[("library/all", metric)], samples[(k, metric)]))
                  for k in ("apps/strip", "apps/private")}
        results[metric] = {"strip ratio of medians": lib_s / strip_s, "strip median of ratios": paired["apps/strip"],
                           "private ratio of medians": lib_s / private_s, "private median of ratios": paired["apps/private"]}
        print("| %s | %s | %s | %s | %.2f× | %.2f× | %.2f×, %.2f× |" % (
            metric, cells[0], cells[1], cells[2], lib_s / strip_s, lib_s / private_s, paired["apps/strip"], paired["apps/private"]))
    print("\nLarge: %d GPS JPEGs, %d MB; small: %d GPS JPEGs, %.1f MB; repeated reads: mean of %d passes per run. "
          "Target: strip and private >= 0.95× library/all." % (len(large), large_bytes // 1_000_000, len(small), small_bytes / 1e6, PASSES))
    json.dump({"samples": {"%s|%s" % k: v for k, v in samples.items()}, "ratios": results},
              open(os.path.join(WORK, "results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
