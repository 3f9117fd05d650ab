#!/usr/bin/env bash
# Index benchmark: `photofs index` against `exiftool -fast -json -r` on the same libraries
# in one run. Prints markdown tables on stdout.
#
# Usage: Tests/Benchmarks/index-bench.sh [WORKDIR]
#   env: COUNT=10000 SEED=7 (small library), REAL_JPEGS=1000 REAL_HEICS=3 REAL_VIDEOS=4
#        REAL_DIR=/var/tmp/photofs-index-bench, SKIP_REAL=1 to bench the small library only,
#        SCALE_COUNT=100000 (unchanged re-index of a generated library that large; 0 skips).
#
# Two libraries: 10,000 small JPEGs written by `photofs generate` (kept in WORKDIR), and a
# realistic one written by real_library.py (camera-size JPEGs of 12-24 MP with full EXIF,
# HEIC photos, large MP4 videos; about 10 GB, kept under /var/tmp). Each command runs warm
# (the library read into the page cache first) and, as root, cold (caches dropped before
# each command). Timings are wall-clock, all cores available to every command; the bytes
# each command read per file come from /proc/PID/io.
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
# The realistic library: generated once (it takes a while) and kept under /var/tmp.
REAL_JPEGS="${REAL_JPEGS:-1000}"
REAL_HEICS="${REAL_HEICS:-3}"
REAL_VIDEOS="${REAL_VIDEOS:-4}"
REAL="${REAL_DIR:-/var/tmp/photofs-index-bench}/real-$REAL_JPEGS-$REAL_HEICS-$REAL_VIDEOS-$SEED"
if [ "${SKIP_REAL:-0}" = 1 ]; then
    REAL=""
elif [ ! -f "$REAL.complete" ]; then
    echo "index-bench: generating the realistic library into $REAL (ImageMagick; this takes a while)" >&2
    mkdir -p "$(dirname "$REAL")"
    python3 Tests/Benchmarks/real_library.py "$REAL" --jpegs "$REAL_JPEGS" --heics "$REAL_HEICS" --videos "$REAL_VIDEOS" --seed "$SEED" >&2
fi

# A large library for the unchanged re-index (SCALE_COUNT=0 skips it).
SCALE_COUNT="${SCALE_COUNT:-100000}"
LARGE=""
if [ "$SCALE_COUNT" -gt 0 ]; then
    LARGE="${REAL_DIR:-/var/tmp/photofs-index-bench}/library-$SCALE_COUNT-$SEED"
    if [ ! -f "$LARGE.complete" ]; then
        rm -rf "$LARGE"
        echo "index-bench: generating $SCALE_COUNT photos into $LARGE" >&2
        "$PHOTOFS" generate "$LARGE" --count "$SCALE_COUNT" --seed "$SEED" >&2
        : > "$LARGE.complete"
    fi
fi

python3 Tests/Benchmarks/index_bench.py "$PHOTOFS" "$WORK" "$LIB" "$REAL" "$LARGE"
