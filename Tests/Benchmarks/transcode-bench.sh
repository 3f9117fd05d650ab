#!/usr/bin/env bash
# Compatible-JPEG benchmark: HEIC -> JPEG at quality 80 on every core, `photofs transcode`
# (decoder processes, EXIF carried over, location stripped) vs libheif's own `heif-convert
# -q 80` (one process per file, xargs -P cores) on the same files, side by side in one run,
# as a ratio (target: photofs >= 1.0x heif-convert).
# Usage: Tests/Benchmarks/transcode-bench.sh [WORKDIR]   (env: HEICS (100), RUNS (1))
# PHOTOFS_BIN=<photofs binary> measures that build instead of building one.
# Uses the 12 MP HEICs of thumbnail-bench.sh in WORKDIR (default
# /var/tmp/photofs-thumbnail-bench), generating them first when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v heif-convert >/dev/null || { echo "transcode-bench: heif-convert is missing (apt-get install libheif-examples)" >&2; exit 3; }
if [ -z "${PHOTOFS_BIN:-}" ]; then
    swift build -c release --product photofs >&2
    export PHOTOFS_BIN="$PWD/.build/release/photofs"
fi
export BENCH_DIR="${1:-/var/tmp/photofs-thumbnail-bench}"
mkdir -p "$BENCH_DIR"
exec /usr/bin/python3 Tests/Benchmarks/transcode_bench.py
