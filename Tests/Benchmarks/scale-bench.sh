#!/usr/bin/env bash
# Scale benchmark: a 1,000,000-photo library (COUNT) mounted, listed, picked from and
# changed, against the same tree on ext4 in the same run. Reports medians of RUNS:
# mount -> ready, daemon VmRSS (ready, after the listings) and VmHWM over the whole run,
# `ls -f`/`find` of library/all and library/folders against direct: "first" is the first
# pass over the view in the mount (every name and attribute asked of the daemon), "warm" a
# pass after one untimed pass on each side (the kernel's caches hold the names, attributes
# and listings: what a repeated walk costs), "cold" a pass after
# `echo 3 > /proc/sys/vm/drop_caches` on each side where permitted; one select and one deselect through
# `.picker`, a live add and delete, and a re-index of the unchanged library. Before each run the
# startup rows: mount → ready with the library's and the catalog's inodes evicted
# (`echo 2 > /proc/sys/vm/drop_caches`, as a mount at login meets them; COLD=0 skips it) and warm,
# each with the first select right after ready (into an app added before the mount) and the one
# after it. ROWS=startup runs only those, STARTUP_RUNS (9) rounds of each, alternated.
#
# Usage: Tests/Benchmarks/scale-bench.sh [--no-build]   (env: COUNT=1000000, RUNS=3, SEED=7,
#        PHOTOFS_BENCH_CACHE=/var/tmp/photofs-bench-libraries, COLD=0 to skip the cold rows,
#        SCALE_CATALOG=PATH to run on a copy of the cached catalog at PATH, made if missing, and
#        mount beside it: two runs at once then do not share a catalog or a mount point)
# The generated library, its catalog and a flat tree of hard links (the direct baseline of
# library/all) are cached in PHOTOFS_BENCH_CACHE between runs: generating and indexing
# 1,000,000 photos takes many minutes the first time. Run by hand; not part of `swift test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT="${COUNT:-1000000}"
SEED="${SEED:-7}"
CACHE="${PHOTOFS_BENCH_CACHE:-/var/tmp/photofs-bench-libraries}"
if [ "${1:-}" != "--no-build" ]; then swift build -c release >&2; fi
export PHOTOFS_BIN="${PHOTOFS_BIN:-$PWD/.build/release/photofs}"
export LIBRARY="$CACHE/library-$COUNT-$SEED"
export CATALOG="$CACHE/catalog-$COUNT-$SEED.sqlite"
export FLAT="$CACHE/flat-$COUNT-$SEED"
mkdir -p "$CACHE"
if [ ! -f "$LIBRARY.complete" ]; then
    rm -rf "$LIBRARY" "$FLAT" "$CATALOG" "$CATALOG-wal" "$CATALOG-shm"
    echo "scale-bench: generating $COUNT photos into $LIBRARY" >&2
    "$PHOTOFS_BIN" generate "$LIBRARY" --count "$COUNT" --seed "$SEED" > /dev/null 2>&1
    : > "$LIBRARY.complete"
fi
if [ ! -f "$CATALOG.complete" ]; then
    echo "scale-bench: indexing $LIBRARY" >&2
    "$PHOTOFS_BIN" index --quiet --catalog "$CATALOG" "$LIBRARY" >&2
    : > "$CATALOG.complete"
fi
if [ -n "${SCALE_CATALOG:-}" ]; then
    if [ ! -f "$SCALE_CATALOG" ]; then
        mkdir -p -m 700 "$(dirname "$SCALE_CATALOG")"
        cp "$CATALOG" "$SCALE_CATALOG"
        chmod 600 "$SCALE_CATALOG"
    fi
    export CATALOG="$SCALE_CATALOG"
fi
if [ ! -f "$FLAT.complete" ] && [ "${ROWS:-}" != "startup" ]; then
    echo "scale-bench: linking every photo into one flat folder $FLAT" >&2
    rm -rf "$FLAT"
    mkdir -p "$FLAT"
    python3 - "$LIBRARY" "$FLAT" <<'PY'
import os, sys
library, flat = sys.argv[1], sys.argv[2]
n = 0
for root, dirs, files in os.walk(library):
    dirs.sort()
    for name in sorted(files):
        n += 1
        os.link(os.path.join(root, name), os.path.join(flat, "%08d.jpg" % n))
PY
    : > "$FLAT.complete"
fi
export COUNT
exec python3 Tests/Benchmarks/scale_bench.py
