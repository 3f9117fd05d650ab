#!/usr/bin/env bash
# Index benchmark (issue 2): `photofs index` against `exiftool -fast -json` on the same
# generated library of JPEGs with EXIF, in one run. Prints a markdown table on stdout.
#
# Usage: Tests/Benchmarks/index-bench.sh [WORKDIR]     (env: COUNT=10000, SEED=7)
#
# The library is written by `photofs generate` (kept in WORKDIR and reused while COUNT and
# SEED stay the same), then read once so that both tools find every file in the page
# cache: no root-only cache dropping, the comparison is warm against warm. Timings are
# wall-clock for one run of each command on this machine, all cores available to both.
set -euo pipefail
cd "$(dirname "$0")/../.."

COUNT="${COUNT:-10000}"
SEED="${SEED:-7}"
WORK="${1:-/tmp/photofs-index-bench}"
LIB="$WORK/library-$COUNT-$SEED"

if ! command -v exiftool >/dev/null 2>&1; then
    echo "index-bench: exiftool is missing; install it with 'sudo apt-get install libimage-exiftool-perl' (or mount-scripts/install-deps)." >&2
    exit 3
fi

echo "index-bench: building photofs in release mode" >&2
swift build -c release >&2
PHOTOFS="$PWD/.build/release/photofs"

mkdir -p "$WORK"
if [ ! -f "$LIB.complete" ]; then
    rm -rf "$LIB" "$LIB.complete"
    echo "index-bench: generating $COUNT photos into $LIB" >&2
    "$PHOTOFS" generate "$LIB" --count "$COUNT" --seed "$SEED" >&2
    : > "$LIB.complete"
fi
FILES=$(find "$LIB" -type f -name '*.[jJ][pP][gG]' | wc -l)
BYTES=$(du -sb "$LIB" | cut -f1)

# Bring every file into the page cache so neither tool pays for the disk.
find "$LIB" -type f -print0 | xargs -0 cat > /dev/null

now() { date +%s.%N; }
# seconds START END -> elapsed seconds with millisecond precision
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "inf" }'; }

CATALOG_DIR=$(mktemp -d "$WORK/catalog.XXXXXX")
trap 'rm -rf "$CATALOG_DIR"' EXIT
CATALOG="$CATALOG_DIR/catalog.sqlite"

have_index=yes
if ! "$PHOTOFS" help index >/dev/null 2>&1; then
    have_index=no
    echo "index-bench: this build has no 'photofs index'; timing exiftool only." >&2
fi

if [ "$have_index" = yes ]; then
    echo "index-bench: photofs index (first, empty catalog)" >&2
    t0=$(now)
    "$PHOTOFS" index "$LIB" --catalog "$CATALOG" > "$WORK/index-first.log" 2>&1
    t1=$(now)
    first=$(elapsed "$t0" "$t1")

    echo "index-bench: photofs index (again, library unchanged)" >&2
    t0=$(now)
    "$PHOTOFS" index "$LIB" --catalog "$CATALOG" > "$WORK/index-second.log" 2>&1
    t1=$(now)
    second=$(elapsed "$t0" "$t1")
fi

echo "index-bench: exiftool -fast -json -r" >&2
t0=$(now)
status=0
exiftool -fast -json -r "$LIB" > /dev/null 2> "$WORK/exiftool.log" || status=$?
t1=$(now)
exif=$(elapsed "$t0" "$t1")
if [ "$status" -ne 0 ]; then
    echo "index-bench: exiftool exited $status (see $WORK/exiftool.log)" >&2
fi

echo "### Index benchmark: $FILES JPEGs ($(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1048576 }') MiB), $(nproc) cores, $(date -u +%Y-%m-%d)"
echo
echo "Library made by \`photofs generate --count $COUNT --seed $SEED\`; all files in the page cache for both tools."
echo
echo "| command | seconds | files/s |"
echo "|---|---:|---:|"
if [ "$have_index" = yes ]; then
    echo "| \`photofs index\` (first, empty catalog) | $first | $(rate "$FILES" "$first") |"
    echo "| \`photofs index\` (again, unchanged library) | $second | $(rate "$FILES" "$second") |"
else
    echo "| \`photofs index\` | n/a (not in this build) | |"
fi
echo "| \`exiftool -fast -json -r\` | $exif | $(rate "$FILES" "$exif") |"
echo
if [ "$have_index" = yes ]; then
    ratio=$(awk -v a="$exif" -v b="$first" 'BEGIN { printf "%.1f", a / b }')
    echo "First index: photofs is **${ratio}×** exiftool (target ≥ 20×). Re-index of the unchanged library: **${second} s** (target < 2 s for 10,000 files)."
else
    echo "photofs/exiftool ratio: n/a until \`photofs index LIBRARY --catalog PATH\` exists."
    exit 1
fi
