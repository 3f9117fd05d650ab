#!/usr/bin/env bash
# Redaction read benchmark: sequential throughput of a `strip` app view against
# library/all on the same GPS JPEGs, in one run, first read (fresh mount) and repeated,
# with a `--metadata private` app view beside it,
# medians of RUNS runs, with the ratios strip / library and private / library (target: >= 0.95).
# Usage: Tests/Benchmarks/redaction-bench.sh [WORKDIR]   (env: RUNS, LARGE_FILES, SMALL_FILES)
# PHOTOFS_BIN=<photofs binary> measures that build instead of building one.
# Needs ImageMagick (convert) and exiftool to build the library once (kept in WORKDIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PHOTOFS_BIN:-}" ]; then
    swift build -c release >&2
    export PHOTOFS_BIN="$PWD/.build/release/photofs"
fi
export BENCH_DIR="${1:-/tmp/photofs-redaction-bench}"
mkdir -p "$BENCH_DIR"
exec python3 Tests/Benchmarks/redaction_bench.py
