#!/usr/bin/env bash
# Thumbnail benchmark: large (256 px) freedesktop thumbnails of real-size photos on every
# core, photofs vs vipsthumbnail (libvips-tools) vs ImageMagick `convert -thumbnail`, side
# by side in one run, as ratios (targets: photofs >= 1.0x vips, >= 5x convert), with
# photofs's embedded-thumbnail hits.
# Usage: Tests/Benchmarks/thumbnail-bench.sh [WORKDIR]
# PHOTOFS_BIN=<photofs binary> measures that build instead of building one.
#   env: JPEGS (500), HEICS (100), DISTINCT (10 distinct pictures per set, copied to fill it),
#        SIZE (large), RUNS (1), GENERATE_ONLY (make the photos and stop), CONVERT (0: leave convert out),
#        SETS (JPEG,HEIC), PHOTOFS_BASELINE (another build: before and after paired in each round)
# The photos are generated once and kept in WORKDIR (default /var/tmp/photofs-thumbnail-bench):
# JPEGs of 12-24 MP with camera EXIF and a 160x120 EXIF thumbnail (too small for large
# thumbnails, as in camera files), HEICs of 12 MP with a 320x240 thumbnail item (as phones
# write them). Needs python3-pil, exiftool, heif-enc (libheif-examples), vipsthumbnail
# (libvips-tools) and convert (imagemagick).
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in vipsthumbnail convert heif-enc exiftool; do
    command -v "$tool" >/dev/null || { echo "thumbnail-bench: $tool is missing (apt-get install libvips-tools imagemagick libheif-examples libimage-exiftool-perl)" >&2; exit 3; }
done
if [ -z "${PHOTOFS_BIN:-}" ]; then
    swift build -c release --product photofs >&2
    export PHOTOFS_BIN="$PWD/.build/release/photofs"
fi
export BENCH_DIR="${1:-/var/tmp/photofs-thumbnail-bench}"
mkdir -p "$BENCH_DIR"
exec /usr/bin/python3 Tests/Benchmarks/thumbnail_bench.py
