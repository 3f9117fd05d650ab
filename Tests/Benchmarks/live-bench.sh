#!/usr/bin/env bash
# Live-change benchmark: time from a file added to or deleted from the library
# until the mount shows it, on an indexed generated library (100,000 photos by default,
# the same one mount-bench.sh makes and keeps in WORKDIR).
# Usage: Tests/Benchmarks/live-bench.sh [WORKDIR]   (env: RUNS=5, COUNT=100000, SEED=7)
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Benchmarks/bench-setup.sh

bench_defaults COUNT=100000 SEED=7

# PHOTOFS_BIN: a photofs binary to use instead of building one.
bench_photofs live-bench
bench_work "${1:-/tmp/photofs-mount-bench}"
export PHOTOFS_BIN="$PHOTOFS"
export LIBRARY="$WORK/library-$COUNT-$SEED"
export CATALOG="$WORK/catalog-$COUNT-$SEED.sqlite"
bench_library live-bench "$LIBRARY" "$CATALOG" "$COUNT" "$SEED"
exec python3 Tests/Benchmarks/live_bench.py
