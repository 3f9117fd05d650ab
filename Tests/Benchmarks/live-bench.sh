#!/usr/bin/env bash
# Live-change benchmark: time from a file added to or deleted from the library
# until the mount shows it, on an indexed generated library (100,000 photos by default,
# the same one mount-bench.sh makes and keeps in WORKDIR).
# Usage: Tests/Benchmarks/live-bench.sh [WORKDIR]   (env: RUNS=5, COUNT=100000, SEED=7)
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT="${COUNT:-100000}"
SEED="${SEED:-7}"
WORK="${1:-/tmp/photofs-mount-bench}"
# PHOTOFS_BIN: a photofs binary to use instead of building one.
if [ -z "${PHOTOFS_BIN:-}" ]; then swift build -c release >&2; fi
export PHOTOFS_BIN="${PHOTOFS_BIN:-$PWD/.build/release/photofs}"
export LIBRARY="$WORK/library-$COUNT-$SEED"
export CATALOG="$WORK/catalog-$COUNT-$SEED.sqlite"
mkdir -p "$WORK"
if [ ! -f "$LIBRARY.complete" ]; then
    rm -rf "$LIBRARY" "$CATALOG" "$CATALOG-wal" "$CATALOG-shm"
    echo "live-bench: generating $COUNT photos into $LIBRARY" >&2
    "$PHOTOFS_BIN" generate "$LIBRARY" --count "$COUNT" --seed "$SEED" > /dev/null 2>&1
    : > "$LIBRARY.complete"
fi
"$PHOTOFS_BIN" index --quiet --catalog "$CATALOG" "$LIBRARY" >&2
exec python3 Tests/Benchmarks/live_bench.py
