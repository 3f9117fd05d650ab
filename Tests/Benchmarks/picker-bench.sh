#!/usr/bin/env bash
# picker-bench.sh — how fast a big selection takes effect, and what an app view costs to list.
#
# 1. 10,000 assets selected in ONE write(2) to .picker: the time of that write (it returns
#    once the grants are durable and the view is swapped in), checked by listing the view.
# 2. Listing apps/bench (10,000 grants) against library/all (the same 10,000 assets) in
#    the same run: `ls -f` (readdir only) and `find -printf %s` (readdir + every stat), the
#    first run and the median of warm runs, as ratios app/all. Each directory's first
#    `ls -f` runs with nothing cached (apps/bench has not been listed since the write).
#
# Usage: Tests/Benchmarks/picker-bench.sh [--count N] [--runs R] [--no-build] [--keep]
# Needs: a release build (made unless --no-build), /dev/fuse, fusermount3, python3.
# Prints a markdown table. Run by hand; not part of `swift test`.
set -euo pipefail

COUNT=10000
RUNS=5
BUILD=1
KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --count) COUNT="$2"; shift 2 ;;
        --runs) RUNS="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "picker-bench: unknown option $1" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
if [ "$BUILD" = 1 ]; then
    (cd "$ROOT" && swift build -c release 2>&1 | tail -1) >&2
fi
PHOTOFS="$ROOT/.build/release/photofs"
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

echo "generating $COUNT photos ..." >&2
"$PHOTOFS" generate "$WORK/library" --count "$COUNT" --seed 42 >&2
"$PHOTOFS" index "$WORK/library" --catalog "$CATALOG" --quiet >&2
"$PHOTOFS" mount --quiet --catalog "$CATALOG" "$WORK/library" "$MNT" >&2
"$PHOTOFS" ls --catalog "$CATALOG" | cut -f1 > "$WORK/ids"

python3 - "$MNT" "$WORK/ids" "$RUNS" "$COUNT" <<'EOF'
import os, statistics, subprocess, sys, time

mnt, ids_path, runs, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ids = open(ids_path).read().split()

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

picker("app add bench\n")
command = "select bench " + " ".join(ids) + "\n"
write_seconds = picker(command)

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
print("| step | library/all | apps/bench | ratio app/all |")
print("|---|---:|---:|---:|")
print("| select %d assets in one write(2) | | %.0f ms (%d bytes) | target < 1000 ms: %s |" % (
    len(ids), write_seconds * 1000, len(command), "met" if write_seconds < 1 else "MISSED"))
for label, result in rows:
    a, b = result["library/all"], result["apps/bench"]
    print("| `%s`, first run%s | %.1f ms | %.1f ms | %.2f× |" % (label, " (nothing cached)" if label == "ls -f" else " (after the ls -f runs)", a[0] * 1000, b[0] * 1000, b[0] / a[0]))
    print("| `%s`, warm median of %d | %.1f ms | %.1f ms | %.2f× %s |" % (
        label, runs, a[1] * 1000, b[1] * 1000, b[1] / a[1], "(target ≤ 1.5×: %s)" % ("met" if b[1] / a[1] <= 1.5 else "MISSED")))
print()
print("%d assets; entries listed: library/all %d, apps/bench %d" % (count, rows[0][1]["library/all"][2], rows[0][1]["apps/bench"][2]))
EOF
