#!/usr/bin/env python3
"""Compatible-JPEG benchmark (see transcode-bench.sh): photofs transcode vs heif-convert on
the same HEICs, all cores, files in the page cache; wall times, files/s and the ratio."""
import os, subprocess, time

import thumbnail_bench as photos

CORES = os.cpu_count() or 1
RUNS = int(os.environ.get("RUNS", "1"))


def main():
    _, heic_dir = photos.generate()
    files = sorted(os.path.join(heic_dir, f) for f in os.listdir(heic_dir))[:photos.HEICS]
    photos.warm(files)
    print("photofs transcode benchmark: %d HEICs (12 MP) -> JPEG quality 80, %d cores, load average %.1f at start" %
          (len(files), CORES, os.getloadavg()[0]))
    print("%-4s | %-9s %8s | %-13s %8s | %8s" % ("run", "photofs s", "files/s", "heif-convert s", "files/s", "ratio"))
    for run in range(RUNS):
        ours = photos.fresh(os.path.join(photos.BENCH, "out-transcode-photofs"))
        start = time.monotonic()
        subprocess.run([photos.PHOTOFS, "transcode", "--quiet", "--quality", "0.8", "--output", ours] + files, check=True)
        p_s = time.monotonic() - start
        theirs = photos.fresh(os.path.join(photos.BENCH, "out-transcode-heif-convert"))
        start = time.monotonic()
        script = 'heif-convert -q 80 "$1" "%s/$(basename "$1" .heic).jpg" >/dev/null' % theirs
        subprocess.run(["xargs", "-0", "-n", "1", "-P", str(CORES), "sh", "-c", script, "sh"],
                       input="\0".join(files).encode(), check=True)
        h_s = time.monotonic() - start
        for tool, folder in (("photofs", ours), ("heif-convert", theirs)):
            if len(os.listdir(folder)) != len(files):
                print("!! %s wrote %d of %d JPEGs" % (tool, len(os.listdir(folder)), len(files)))
        print("%-4d | %9.2f %8.2f | %14.2f %8.2f | %7.2fx" % (run + 1, p_s, len(files) / p_s, h_s, len(files) / h_s, h_s / p_s))
    print("load average %.1f at the end" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
