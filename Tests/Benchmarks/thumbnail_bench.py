#!/usr/bin/env python3
"""Thumbnail benchmark (see thumbnail-bench.sh): generates the photo sets once, then times
photofs, vipsthumbnail and convert over the same files, each using every core, with all
files in the page cache, and prints wall times, files/s and ratios. Each tool runs twice, in
the order photofs, vips, convert, convert, vips, photofs, and counts as the mean of its two
runs, so that a load that rises or falls steadily on a shared machine weighs on all alike.
CPU seconds (user + system of the tool and every process it started) are printed too:
they depend far less on what else the machine runs.

PHOTOFS_BASELINE=<another photofs binary> measures a before and an after in the same run:
each round then runs photofs, baseline, vips, vips, baseline, photofs (convert left out),
and prints both against vips and the after against the before (paired by round)."""
import os, re, resource, shutil, subprocess, sys, time

from bench_common import sh

PHOTOFS = os.environ["PHOTOFS_BIN"]
BENCH = os.environ["BENCH_DIR"]
JPEGS = int(os.environ.get("JPEGS", "500"))
HEICS = int(os.environ.get("HEICS", "100"))
DISTINCT = int(os.environ.get("DISTINCT", "10"))
SIZE = os.environ.get("SIZE", "large")
RUNS = int(os.environ.get("RUNS", "1"))
# CONVERT=0 leaves ImageMagick out (a photofs vs vips run in a few minutes instead of twenty).
CONVERT = os.environ.get("CONVERT", "1") != "0"
BASELINE = os.environ.get("PHOTOFS_BASELINE")
# SETS=JPEG (or HEIC) measures one set only.
SETS = os.environ.get("SETS", "JPEG,HEIC").split(",")
BOX = {"normal": 128, "large": 256, "x-large": 512}[SIZE]
CORES = os.cpu_count() or 1

# 12 to 24 MP, the sizes of common camera sensors.
SENSOR_SIZES = [(4000, 3000), (4240, 2832), (4608, 3456), (5184, 3456), (5472, 3648), (6000, 4000),
                (4032, 3024), (5568, 3712), (4928, 3264), (6016, 4000)]


def picture(w, h, seed):
    """A photo-like picture: smooth coloured blobs with fine grain (compresses like a photo)."""
    from PIL import Image
    import random
    random.seed(seed)
    channels = [Image.effect_noise((w // 24, h // 24), 60 + 10 * c).resize((w, h), Image.BICUBIC) for c in range(3)]
    base = Image.merge("RGB", channels)
    grain = Image.effect_noise((w, h), 18).convert("RGB")
    return Image.blend(base, grain, 0.25)


def generate():
    jpeg_dir, heic_dir, base_dir = (os.path.join(BENCH, d) for d in ("jpeg", "heic", "base"))
    if len(os.listdir(jpeg_dir) if os.path.isdir(jpeg_dir) else []) >= JPEGS and \
            len(os.listdir(heic_dir) if os.path.isdir(heic_dir) else []) >= HEICS:
        return jpeg_dir, heic_dir
    from PIL import Image
    for d in (jpeg_dir, heic_dir, base_dir):
        os.makedirs(d, exist_ok=True)
    bases, heic_bases = [], []
    for i in range(DISTINCT):
        w, h = SENSOR_SIZES[i % len(SENSOR_SIZES)]
        path = os.path.join(base_dir, "base%02d.jpg" % i)
        if not os.path.exists(path):
            print("generating %s (%dx%d)" % (path, w, h), file=sys.stderr)
            img = picture(w, h, i)
            img.save(path + ".tmp.jpg", quality=92)
            thumb = img.resize((160, 120 if w * 3 == h * 4 else round(160 * h / w)))
            thumb.save(path + ".thumb.jpg", quality=80)
            sh("exiftool", "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS 5D Mark IV",
               "-DateTimeOriginal=2024:06:%02d 12:00:00" % (i + 1), "-Orientation#=1",
               "-ThumbnailImage<=" + path + ".thumb.jpg", path + ".tmp.jpg")
            os.rename(path + ".tmp.jpg", path)
            os.unlink(path + ".thumb.jpg")
        bases.append(path)
        heic = os.path.join(base_dir, "base%02d.heic" % i)
        if not os.path.exists(heic):
            print("generating %s" % heic, file=sys.stderr)
            src = os.path.join(base_dir, "phone%02d.jpg" % i)
            picture(4032, 3024, 100 + i).save(src, quality=95)
            sh("heif-enc", "-q", "50", "-t", "320", "-p", "preset=ultrafast", "-o", heic + ".tmp.heic", src,
               stdout=subprocess.DEVNULL)
            os.rename(heic + ".tmp.heic", heic)
            os.unlink(src)
        heic_bases.append(heic)
    for n in range(JPEGS):
        dest = os.path.join(jpeg_dir, "IMG_%04d.jpg" % n)
        if not os.path.exists(dest):
            shutil.copyfile(bases[n % len(bases)], dest)
    for n in range(HEICS):
        dest = os.path.join(heic_dir, "IMG_%04d.heic" % n)
        if not os.path.exists(dest):
            shutil.copyfile(heic_bases[n % len(heic_bases)], dest)
    return jpeg_dir, heic_dir


def warm(files):
    for f in files:
        with open(f, "rb") as fh:
            while fh.read(1 << 20):
                pass


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh(path):
    """An empty folder at `path`, private to this user (photofs warns of a catalog folder
    others can list)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, mode=0o700)
    return path


def run_photofs(library, catalog, out, binary=PHOTOFS):
    env = dict(os.environ, XDG_CACHE_HOME=fresh(out))
    cpu = children_cpu()
    start = time.monotonic()
    result = subprocess.run([binary, "thumbnails", "--catalog", catalog, "--size", SIZE, "--force"],
                            env=env, capture_output=True, text=True, check=True)
    elapsed = time.monotonic() - start
    cpu = children_cpu() - cpu
    made = len(os.listdir(os.path.join(out, "thumbnails", SIZE)))
    summary = result.stdout.strip().splitlines()[-1]
    embedded = int(re.search(r"\((\d+) from embedded previews", summary).group(1))
    return elapsed, cpu, made, embedded, summary


def run_vips(files, out):
    fresh(out)
    cpu = children_cpu()
    start = time.monotonic()
    batch = max(1, len(files) // (CORES * 4))
    subprocess.run(["xargs", "-0", "-n", str(batch), "-P", str(CORES), "vipsthumbnail", "-s", str(BOX),
                    "-o", os.path.join(out, "%s.png")], input="\0".join(files).encode(), check=True,
                   stderr=subprocess.DEVNULL)
    return time.monotonic() - start, children_cpu() - cpu, len(os.listdir(out))


def run_convert(files, out):
    fresh(out)
    cpu = children_cpu()
    start = time.monotonic()
    script = 'convert "$1" -thumbnail %dx%d "%s/$(basename "$1").png"' % (BOX, BOX, out)
    subprocess.run(["xargs", "-0", "-n", "1", "-P", str(CORES), "sh", "-c", script, "sh"],
                   input="\0".join(files).encode(), check=True, stderr=subprocess.DEVNULL)
    return time.monotonic() - start, children_cpu() - cpu, len(os.listdir(out))


def main():
    jpeg_dir, heic_dir = generate()
    if os.environ.get("GENERATE_ONLY"):
        return
    data = fresh(os.path.join(BENCH, "xdg-data"))
    print("photofs thumbnail benchmark: %s (%d px), %d cores, load average %.1f at start" %
          (SIZE, BOX, CORES, os.getloadavg()[0]))
    print("%-5s %5s | %-22s | %-22s | %-22s | %-13s | %-13s | %s" %
          ("set", "files", "photofs s (cpu s)", "vips s (cpu s)", "convert s (cpu s)", "x vips (cpu)",
           "x conv (cpu)", "photofs embedded hits"))
    for name, folder in (("JPEG", jpeg_dir), ("HEIC", heic_dir)):
        if name not in SETS:
            continue
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
        catalog = os.path.join(data, name + ".sqlite")
        sh(PHOTOFS, "index", "--quiet", "--catalog", catalog, folder)
        warm(files)
        if BASELINE:
            paired(name, folder, catalog, files)
            continue
        for run in range(RUNS):
            out_p, out_v, out_c = (os.path.join(BENCH, "out-" + t) for t in ("photofs", "vips", "convert"))
            p1 = run_photofs(folder, catalog, out_p)
            v1 = run_vips(files, out_v)
            c1 = run_convert(files, out_c) if CONVERT else (float("nan"), float("nan"), len(files))
            c2 = run_convert(files, out_c) if CONVERT else c1
            v2 = run_vips(files, out_v)
            p2 = run_photofs(folder, catalog, out_p)
            for tool, n in (("photofs", p1[2]), ("photofs", p2[2]), ("vips", v1[2]), ("vips", v2[2]), ("convert", c1[2]),
                            ("convert", c2[2])):
                if n != len(files):
                    print("!! %s made %d of %d thumbnails" % (tool, n, len(files)))
            p = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
            v = ((v1[0] + v2[0]) / 2, (v1[1] + v2[1]) / 2)
            c = ((c1[0] + c2[0]) / 2, (c1[1] + c2[1]) / 2)
            print("%-5s %5d | %9.2f (%9.2f) | %9.2f (%9.2f) | %9.2f (%9.2f) | %5.2fx (%5.2fx) | %5.2fx (%5.2fx) | %d of %d" %
                  (name, len(files), p[0], p[1], v[0], v[1], c[0], c[1], v[0] / p[0], v[1] / p[1], c[0] / p[0],
                   c[1] / p[1], p1[3], len(files)))
            print("      runs: photofs %.2f s, %.2f s; vips %.2f s, %.2f s; convert %.2f s, %.2f s; photofs: %s" %
                  (p1[0], p2[0], v1[0], v2[0], c1[0], c2[0], p1[4]))
    print("load average %.1f at the end" % os.getloadavg()[0])


def paired(name, folder, catalog, files):
    """RUNS rounds of after (PHOTOFS_BIN) and before (PHOTOFS_BASELINE) against vips."""
    out_p, out_v = (os.path.join(BENCH, "out-" + t) for t in ("photofs", "vips"))
    print("paired rounds: after = %s, before = %s" % (PHOTOFS, BASELINE))
    print("%-5s %5s | %-16s | %-16s | %-16s | %-15s | %-15s | %s" %
          ("round", "load", "after s (cpu)", "before s (cpu)", "vips s (cpu)", "x vips after", "x vips before",
           "after / before cpu"))
    rows = []
    for run in range(RUNS):
        load = os.getloadavg()[0]
        a1 = run_photofs(folder, catalog, out_p)
        b1 = run_photofs(folder, catalog, out_p, BASELINE)
        v1 = run_vips(files, out_v)
        v2 = run_vips(files, out_v)
        b2 = run_photofs(folder, catalog, out_p, BASELINE)
        a2 = run_photofs(folder, catalog, out_p)
        for tool, n in (("after", a1[2]), ("after", a2[2]), ("before", b1[2]), ("before", b2[2]), ("vips", v1[2]), ("vips", v2[2])):
            if n != len(files):
                print("!! %s made %d of %d thumbnails" % (tool, n, len(files)))
        a = ((a1[0] + a2[0]) / 2, (a1[1] + a2[1]) / 2)
        b = ((b1[0] + b2[0]) / 2, (b1[1] + b2[1]) / 2)
        v = ((v1[0] + v2[0]) / 2, (v1[1] + v2[1]) / 2)
        rows.append((a, b, v))
        print("%-5d %5.1f | %6.2f (%6.2f) | %6.2f (%6.2f) | %6.2f (%6.2f) | %5.2fx (%5.2fx) | %5.2fx (%5.2fx) | %5.2f" %
              (run + 1, load, a[0], a[1], b[0], b[1], v[0], v[1], v[0] / a[0], v[1] / a[1], v[0] / b[0], v[1] / b[1],
               a[1] / b[1]))
    def median(values):
        ordered = sorted(values)
        return ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    print("median %s of %d rounds: x vips wall after %.2fx, before %.2fx; x vips cpu after %.2fx, before %.2fx; "
          "after / before cpu %.2f, wall %.2f" %
          (name, len(rows), median([r[2][0] / r[0][0] for r in rows]), median([r[2][0] / r[1][0] for r in rows]),
           median([r[2][1] / r[0][1] for r in rows]), median([r[2][1] / r[1][1] for r in rows]),
           median([r[0][1] / r[1][1] for r in rows]), median([r[0][0] / r[1][0] for r in rows])))


if __name__ == "__main__":
    main()
