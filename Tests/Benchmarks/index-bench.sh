#!/usr/bin/env bash
# Index benchmark: `photofs index` against `exiftool -fast -json -r` on the same libraries
# in one run. Prints markdown tables on stdout.
#
# Usage: Tests/Benchmarks/index-bench.sh [WORKDIR]
#   env: PHOTOFS_BIN (a given build; default: build one), COUNT=10000 SEED=7 (small library), REAL_JPEGS=1000 REAL_HEICS=200 REAL_VIDEOS=4
#        RUNS=3 (fresh warm indexes of each library, the median reported; exiftool runs once),
#        PAIRED_ROUNDS=N (first N paired rounds on the small library, warm: a fresh index and
#        exiftool in alternating order, the ratio per round; BASELINE_BIN=<another build> adds
#        that build to every round; PAIRED_ONLY=1 stops after them),
#        REAL_DIR=/var/tmp/photofs-index-bench, SKIP_REAL=1 to bench the small library only,
#        SCALE_COUNT=100000 (unchanged re-index of a generated library that large; 0 skips),
#        REINDEX_COUNT=1000000 (unchanged re-index of scale-bench.sh's cached library of that
#        size, into a copy of its catalog, when PHOTOFS_BENCH_CACHE holds it; 0 skips;
#        REINDEX_CATALOG=PATH copies that catalog instead: scale-bench links every file into
#        its flat folder after indexing, which moves every ctime, so a copy of the cached
#        catalog makes its first run read every file again; the warm-up run absorbs that).
#
# Two libraries: 10,000 small JPEGs written by `photofs generate` (kept in WORKDIR), and a
# realistic one written by real_library.py (camera-size JPEGs of 12-24 MP with full EXIF,
# HEIC photos, large MP4 videos; about 10 GB, kept under /var/tmp). Each command runs warm
# (the library read into the page cache first) and, as root, cold (caches dropped before
# each command). Timings are wall-clock of the whole process (start and catalog creation
# included: what a person waits for), all cores available to every command, with the CPU
# time (user + system) beside it; the bytes each command read per file come from
# /proc/PID/io (photofs's include its catalog's own reads).
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Benchmarks/bench-setup.sh

bench_defaults COUNT=10000 SEED=7

if ! command -v exiftool >/dev/null 2>&1; then
    echo "index-bench: exiftool is missing; install it with 'sudo apt-get install libimage-exiftool-perl' (or mount-scripts/install-deps)." >&2
    exit 3
fi

# PHOTOFS_BIN: a photofs binary to use instead of building one.
bench_photofs index-bench
bench_work "${1:-/tmp/photofs-index-bench}"
LIB="$WORK/library-$COUNT-$SEED"
if [ ! -f "$LIB.complete" ]; then
    rm -rf "$LIB" "$LIB.complete"
    echo "index-bench: generating $COUNT photos into $LIB" >&2
    "$PHOTOFS" generate "$LIB" --count "$COUNT" --seed "$SEED" >&2
    : > "$LIB.complete"
fi
# The realistic library: generated once (it takes a while) and kept under /var/tmp.
REAL_JPEGS="${REAL_JPEGS:-1000}"
REAL_HEICS="${REAL_HEICS:-200}"
REAL_VIDEOS="${REAL_VIDEOS:-4}"
REAL="${REAL_DIR:-/var/tmp/photofs-index-bench}/real-$REAL_JPEGS-$REAL_HEICS-$REAL_VIDEOS-$SEED"
if [ "${SKIP_REAL:-0}" = 1 ]; then
    REAL=""
elif [ ! -f "$REAL.complete" ]; then
    echo "index-bench: generating the realistic library into $REAL (ImageMagick, heif-enc; this takes a while)" >&2
    mkdir -p "$(dirname "$REAL")"
    # JPEGs and videos of a finished library with other HEIC counts are hard-linked, not
    # written again (about 10 GB); HEICs are made here.
    for other in "${REAL%-*-*-*-*}-$REAL_JPEGS"-*-"$REAL_VIDEOS-$SEED"; do
        if [ -f "$other.complete" ] && [ ! -e "$REAL" ]; then
            cp -al "$other" "$REAL"
            rm -rf "$REAL/heic"  # links only: the other library keeps its files
            [ -e "$REAL.bases" ] || cp -al "$other.bases" "$REAL.bases"
        fi
    done
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

# scale-bench.sh's cached, indexed library (made by it, never here: ~50 minutes).
REINDEX_COUNT="${REINDEX_COUNT:-1000000}"
CACHE="${PHOTOFS_BENCH_CACHE:-/var/tmp/photofs-bench-libraries}"
EXISTING=""
if [ "$REINDEX_COUNT" -gt 0 ] && [ -f "$CACHE/catalog-$REINDEX_COUNT-$SEED.sqlite.complete" ]; then
    EXISTING="$CACHE/library-$REINDEX_COUNT-$SEED:${REINDEX_CATALOG:-$CACHE/catalog-$REINDEX_COUNT-$SEED.sqlite}"
elif [ "$REINDEX_COUNT" -gt 0 ]; then
    echo "index-bench: no indexed library of $REINDEX_COUNT in $CACHE (run scale-bench.sh first); skipping that re-index" >&2
fi

python3 Tests/Benchmarks/index_bench.py "$PHOTOFS" "$WORK" "$LIB" "$REAL" "$LARGE" "$EXISTING"
