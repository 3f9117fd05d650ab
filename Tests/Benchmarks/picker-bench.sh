#!/usr/bin/env bash
# picker-bench.sh — how fast a big selection takes effect, what one select or deselect costs
# in a large library with many apps, and what an app view costs to list.
#
# 0. APPS apps (bench0, bench1, ...) with GRANTS grants each are set up first. Then, RUNS
#    times each: one `select bench0 ID` from write(2) until the asset is listed in
#    apps/bench0, and one `deselect bench0 ID` from write(2) until `stat` of its file fails;
#    also the daemon's CPU time per pair (from /proc/PID/stat), which a loaded machine
#    does not inflate the way it does wall time.
# 1. 10,000 assets selected in ONE write(2) to .picker: the time of that write (it returns
#    once the grants are durable and the view is swapped in), checked by listing the view.
# 2. Listing apps/bench (10,000 grants) against library/all (the first 10,000 assets) in
#    the same run: `ls -f` (readdir only) and `find -printf %s` (readdir + every stat), the
#    first run and the median of warm runs, as ratios app/all. Each directory's first
#    `ls -f` runs with nothing cached (apps/bench has not been listed since the write).
#
# Usage: Tests/Benchmarks/picker-bench.sh [--count N] [--apps A] [--grants G] [--runs R] [--no-build] [--keep]
#        (defaults: 100,000 assets, 20 apps x 1,000 grants, 5 runs). The generated library is
#        cached under $PHOTOFS_BENCH_CACHE (default /var/tmp/photofs-bench-libraries).
# Needs: a release build (made unless --no-build), /dev/fuse, fusermount3, python3.
# Prints a markdown table. Run by hand; not part of `swift test`.
set -euo pipefail

COUNT=100000
APPS=20
GRANTS=1000
RUNS=5
BUILD=1
KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --count) COUNT="$2"; shift 2 ;;
        --runs) RUNS="$2"; shift 2 ;;
        --apps) APPS="$2"; shift 2 ;;
        --grants) GRANTS="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "picker-bench: unknown option $1" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
if [ "$BUILD" = 1 ]; then
    (cd "$ROOT" && swift build -c release 2>&1 | tail -1) >&2
fi
PHOTOFS="${PHOTOFS_BIN:-$ROOT/.build/release/photofs}"
[ -x "$PHOTOFS" ] || { echo "picker-bench: $PHOTOFS is missing; run 'swift build -c release'" >&2; exit 3; }
[ -e /dev/fuse ] && command -v fusermount3 >/dev/null || { echo "picker-bench: needs /dev/fuse and fusermount3" >&2; exit 3; }

WORK="$(mktemp -d /tmp/photofs-picker-bench-XXXXXX)"
MNT="$WORK/mnt"
CATALOG="$WORK/catalog.sqlite"
mkdir -p "$MNT"
cleanup() {
    if mountpoint -q "$MNT" 2>/dev/null; then "$PHOTOFS" unmount "$MNT" >/dev/null 2>&1 || fusermount3 -u -z "$MNT" || true; fi
    if [ "$KEEP" = 0 ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi
}
trap cleanup EXIT

CACHE="${PHOTOFS_BENCH_CACHE:-/var/tmp/photofs-bench-libraries}"
LIB="$CACHE/library-$COUNT-42"
mkdir -p "$CACHE"
if [ ! -f "$LIB.complete" ]; then
    rm -rf "$LIB"
    echo "generating $COUNT photos into $LIB ..." >&2
    "$PHOTOFS" generate "$LIB" --count "$COUNT" --seed 42 >&2
    : > "$LIB.complete"
fi
"$PHOTOFS" index "$LIB" --catalog "$CATALOG" --quiet >&2
"$PHOTOFS" mount --quiet --catalog "$CATALOG" "$LIB" "$MNT" >&2
"$PHOTOFS" ls --catalog "$CATALOG" | cut -f1 > "$WORK/ids"

DAEMON="$(pgrep -f -- "mount -f .*$MNT" | head -1 || true)"

python3 - "$MNT" "$WORK/ids" "$RUNS" "$COUNT" "$APPS" "$GRANTS" "$DAEMON" <<'EOF'
import os, statistics, subprocess, sys, time

mnt, ids_path, runs, count, apps, grants = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
daemon = sys.argv[7]

def daemon_cpu():
    """The daemon's CPU seconds so far (user + system, every thread, ended ones included)."""
    if not daemon:
        return None
    try:
        fields = open("/proc/%s/stat" % daemon).read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
ids = open(ids_path).read().split()
if len(ids) < apps * grants + runs + 10000:
    sys.exit("picker-bench: %d assets are too few for %d apps x %d grants" % (len(ids), apps, grants))

def picker(text):
    fd = os.open(mnt + "/.picker", os.O_RDWR | os.O_TRUNC)
    try:
        start = time.perf_counter()
        os.write(fd, text.encode())
        return time.perf_counter() - start
    except OSError as e:
        sys.exit("picker write failed: %s: %s" % (e, os.pread(fd, 4096, 0).decode(errors="replace")))
    finally:
        os.close(fd)

# Many apps with many grants: each later write must cost one app, not all of them.
for a in range(apps):
    picker("app add bench%d --location keep\n" % a)
    picker("select bench%d %s\n" % (a, " ".join(ids[a * grants:(a + 1) * grants])))
view = mnt + "/apps/bench0"
spare = ids[apps * grants:apps * grants + runs]
selects, deselects = [], []
cpu_before = daemon_cpu()
for asset in spare:
    before = set(os.listdir(view))
    start = time.perf_counter()
    picker("select bench0 %s\n" % asset)
    while True:
        added = set(os.listdir(view)) - before
        if added:
            break
    selects.append(time.perf_counter() - start)
    path = view + "/" + added.pop()
    start = time.perf_counter()
    picker("deselect bench0 %s\n" % asset)
    while True:
        try:
            os.stat(path)
        except FileNotFoundError:
            break
    deselects.append(time.perf_counter() - start)
cpu_after = daemon_cpu()

bulk = ids[-10000:]
picker("app add bench\n")
command = "select bench " + " ".join(bulk) + "\n"
write_seconds = picker(command)
ids = bulk

def timed(argv):
    start = time.perf_counter()
    out = subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout
    return time.perf_counter() - start, out.count(b"\n")

rows = []
for label, make in [("ls -f", lambda p: ["ls", "-f", p]), ("find -printf %s", lambda p: ["find", p, "-printf", "%s\n"])]:
    result = {}
    for view in ["library/all", "apps/bench"]:
        path = mnt + "/" + view
        first, lines = timed(make(path))
        warm = sorted(timed(make(path))[0] for _ in range(runs))
        result[view] = (first, statistics.median(warm), lines)
        if lines < len(ids):
            sys.exit("%s lists %d of %d after the write" % (view, lines, len(ids)))
    rows.append((label, result))

print()
print("| step | library/all (entries) | apps/bench (entries) | ratio app/all |")
print("|---|---:|---:|---:|")
print("| one `select` (write(2) until listed), median of %d | | %.1f ms (worst %.1f) | target ≤ 10 ms: %s |" % (
    len(selects), statistics.median(selects) * 1000, max(selects) * 1000, "met" if statistics.median(selects) <= 0.01 else "MISSED"))
print("| one `deselect` (write(2) until stat fails), median of %d | | %.1f ms (worst %.1f) | target ≤ 10 ms: %s |" % (
    len(deselects), statistics.median(deselects) * 1000, max(deselects) * 1000, "met" if statistics.median(deselects) <= 0.01 else "MISSED"))
if cpu_before is not None and cpu_after is not None:
    # CPU, unlike wall time, does not grow with the time spent waiting for a core on a
    # loaded machine (it includes the listings and stats of the loop above).
    print("| daemon CPU per select + deselect (with their listings), mean of %d | | %.1f ms | |" % (
        len(spare), (cpu_after - cpu_before) * 1000 / len(spare)))
print("| select %d assets in one write(2) | | %.0f ms (%d bytes) | target ≤ 300 ms: %s |" % (
    len(ids), write_seconds * 1000, len(command), "met" if write_seconds <= 0.3 else "MISSED"))
for label, result in rows:
    a, b = result["library/all"], result["apps/bench"]
    # Per listed entry: library/all holds every asset, apps/bench the last 10,000.
    per = lambda r, i: r[i] / max(1, r[2])
    print("| `%s`, first run%s | %.1f ms (%d) | %.1f ms (%d) | %.2f× per entry |" % (label, " (nothing cached)" if label == "ls -f" else " (after the ls -f runs)", a[0] * 1000, a[2], b[0] * 1000, b[2], per(b, 0) / per(a, 0)))
    print("| `%s`, warm median of %d | %.1f ms | %.1f ms | %.2f× per entry %s |" % (
        label, runs, a[1] * 1000, b[1] * 1000, per(b, 1) / per(a, 1), "(target ≤ 1.5×: %s)" % ("met" if per(b, 1) / per(a, 1) <= 1.5 else "MISSED")))
print()
print("%d assets, %d apps x %d grants; entries listed: library/all %d, apps/bench %d" % (
    count, apps, grants, rows[0][1]["library/all"][2], rows[0][1]["apps/bench"][2]))
EOF
