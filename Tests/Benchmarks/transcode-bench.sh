#!/usr/bin/env bash
# Compatible-JPEG benchmark: HEIC -> JPEG at quality 80 on every core, `photofs transcode`
# (decoder processes, EXIF carried over, location stripped) vs libheif's own `heif-convert
# -q 80` (one process per file, xargs -P cores) on the same files, in paired rounds (the
# order alternates), wall and CPU time per round and their ratios (target: photofs >= 1.2x
# heif-convert in both).
# Usage: Tests/Benchmarks/transcode-bench.sh [WORKDIR]
#   env: ROUNDS (9), GENERATED (16: 12 MP HEICs made with heif-enc), REAL_COPIES (4: times each
#   real phone HEIC of 12 MP or more from $PHOTOFS_CORPUS is converted per round),
#   BASELINE_BIN (another photofs build measured in the same rounds).
# PHOTOFS_BIN=<photofs binary> measures that build instead of building one.
# The generated HEICs are thumbnail-bench.sh's, in WORKDIR (default
# /var/tmp/photofs-thumbnail-bench), made first when missing.
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
