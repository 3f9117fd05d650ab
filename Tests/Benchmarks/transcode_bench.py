#!/usr/bin/env python3
"""Compatible-JPEG benchmark (see transcode-bench.sh): photofs transcode vs heif-convert on
the same HEICs, all cores, files in the page cache. ROUNDS paired rounds; in each both tools
convert the same files, in alternating order (photofs first in odd rounds), so a load that
rises or falls weighs on both alike. Per round: wall and CPU seconds (user + system of the
tool and every process it started) and the two ratios (heif-convert ÷ photofs: above 1 means
photofs is faster). BASELINE_BIN=<another photofs build> adds that build to every round, so a
change is measured against the build before it in the same rounds. Prints markdown."""
import json, os, resource, shutil, statistics, subprocess, time

import thumbnail_bench as photos

CORES = os.cpu_count() or 1
ROUNDS = int(os.environ.get("ROUNDS", "9"))
# Generated 12 MP HEICs per round (heif-enc, one image item), plus the real phone HEICs.
GENERATED = int(os.environ.get("GENERATED", "16"))
# Each real 12 MP phone HEIC found in the corpus (grid images, EXIF) is converted this often per round.
REAL_COPIES = int(os.environ.get("REAL_COPIES", "4"))


def real_heics():
    """The corpus's HEICs of 12 MP or more, by manifest (exiftool's reading), if it is there."""
    corpus = os.environ.get("PHOTOFS_CORPUS", "")
    manifest = os.path.join(corpus, "manifest.json")
    if not corpus or not os.path.exists(manifest):
        return []
    with open(manifest) as f:
        entries = json.load(f)
    found = []
    for entry in entries if isinstance(entries, list) else entries.values():
        path = entry.get("path", "") if isinstance(entry, dict) else ""
        full = path if os.path.isabs(path) else os.path.join(corpus, path)
        width, height = entry.get("ImageWidth", 0), entry.get("ImageHeight", 0)
        if path.lower().endswith((".heic", ".heif")) and isinstance(width, int) and isinstance(height, int) \
                and 12_000_000 <= width * height <= 100_000_000 and max(width, height) <= 16384 and os.path.exists(full):
            found.append(full)
    return sorted(found)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv, **kwargs):
    cpu = children_cpu()
    start = time.monotonic()
    subprocess.run(argv, check=True, **kwargs)
    return time.monotonic() - start, children_cpu() - cpu


def run_photofs(files, out, binary=photos.PHOTOFS):
    photos.fresh(out)
    return timed([binary, "transcode", "--quiet", "--quality", "0.8", "--output", out] + files)


def run_heif_convert(files, out):
    photos.fresh(out)
    script = 'heif-convert -q 80 "$1" "%s/$(basename "$1" .heic).jpg" >/dev/null' % out
    return timed(["xargs", "-0", "-n", "1", "-P", str(CORES), "sh", "-c", script, "sh"], input="\0".join(files).encode())


def main():
    _, heic_dir = photos.generate()
    generated = sorted(os.path.join(heic_dir, f) for f in os.listdir(heic_dir))[:GENERATED]
    # Real photos are linked under distinct names so each copy is its own output file.
    real_dir = photos.fresh(os.path.join(photos.BENCH, "heic-real"))
    real = []
    for source in real_heics():
        for n in range(REAL_COPIES):
            link = os.path.join(real_dir, "%s-%d.heic" % (os.path.splitext(os.path.basename(source))[0], n))
            shutil.copyfile(source, link)
            real.append(link)
    files = generated + real
    photos.warm(files)
    print("photofs transcode benchmark: %d HEICs (%d generated 12 MP, %d real phone photos of 12 MP or more) -> JPEG quality 80,"
          " %d cores, %d paired rounds; load average %.1f at the start" % (len(files), len(generated), len(real), CORES, ROUNDS,
                                                                           os.getloadavg()[0]))
    print()
    baseline = os.environ.get("BASELINE_BIN", "")
    extra_head = " baseline wall / CPU s | baseline ratio wall / CPU |" if baseline else ""
    print("| round | load | photofs wall / CPU s | heif-convert wall / CPU s | ratio wall | ratio CPU |" + extra_head)
    print("|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if baseline else ""))
    walls, cpus, base_walls, base_cpus = [], [], [], []
    ours_dir = os.path.join(photos.BENCH, "out-transcode-photofs")
    theirs_dir = os.path.join(photos.BENCH, "out-transcode-heif-convert")
    base_dir = os.path.join(photos.BENCH, "out-transcode-baseline")
    for n in range(ROUNDS):
        load = os.getloadavg()[0]
        steps = [("photofs", lambda: run_photofs(files, ours_dir)), ("heif-convert", lambda: run_heif_convert(files, theirs_dir))]
        if baseline:
            steps.append(("baseline", lambda: run_photofs(files, base_dir, baseline)))
        results = {name: step() for name, step in (steps if n % 2 == 0 else list(reversed(steps)))}
        for tool, folder in (("photofs", ours_dir), ("heif-convert", theirs_dir)) + ((("baseline", base_dir),) if baseline else ()):
            if len(os.listdir(folder)) != len(files):
                raise SystemExit("transcode-bench: %s wrote %d of %d JPEGs" % (tool, len(os.listdir(folder)), len(files)))
        ours, theirs = results["photofs"], results["heif-convert"]
        walls.append(theirs[0] / ours[0])
        cpus.append(theirs[1] / ours[1])
        row = "| %d | %.1f | %.2f / %.2f | %.2f / %.2f | %.2f× | %.2f× |" % (
            n + 1, load, ours[0], ours[1], theirs[0], theirs[1], walls[-1], cpus[-1])
        if baseline:
            base = results["baseline"]
            base_walls.append(theirs[0] / base[0])
            base_cpus.append(theirs[1] / base[1])
            row += " %.2f / %.2f | %.2f× / %.2f× |" % (base[0], base[1], base_walls[-1], base_cpus[-1])
        print(row)
    print()
    print("Median of %d paired rounds: **%.2f× in wall time, %.2f× in CPU time** (heif-convert ÷ photofs; geometric mean"
          " %.2f× / %.2f×; lowest round %.2f× / %.2f×). Load average %.1f at the end." % (
              ROUNDS, statistics.median(walls), statistics.median(cpus), statistics.geometric_mean(walls),
              statistics.geometric_mean(cpus), min(walls), min(cpus), os.getloadavg()[0]))
    if baseline:
        print()
        print("Baseline build in the same rounds: median %.2f× in wall time, %.2f× in CPU time." % (
            statistics.median(base_walls), statistics.median(base_cpus)))

if __name__ == "__main__":
    main()
