#!/usr/bin/env bash
# The cold-and-first-touch targets in one run: every paired benchmark that measures one of
# them, one after the other on the same machine and the same two builds, each with ROUNDS
# paired rounds (the build measured and, with BASELINE_BIN, the build before in the same
# rounds). Prints each benchmark's table under the target it shows, with the load average
# before and after it, and keeps every output in WORKDIR/targets-<time>/.
#
#   target                                                   benchmark (mode)
#   cold `find -printf %s` / `ls -f` of 100,000 names ÷ direct read-bench.sh (COLD_LISTING=compare)
#   warm small-file and random 4 KiB reads ÷ passthrough_ll    read-bench.sh (WARM_READS=compare)
#   HEIC → JPEG ÷ heif-convert, wall and CPU                  transcode-bench.sh
#   1,000,000 assets: mount → ready, first select              scale-bench.sh (ROWS=startup)
#   picker page first grid paint at 100,000                    picker_paint_rounds.py
#   `photofs index` of 5,000 JPEGs ÷ exiftool -fast            index-bench.sh (PAIRED_ONLY=1)
#
# Usage: PHOTOFS_BIN=<build> [BASELINE_BIN=<build before>] Tests/Benchmarks/targets-bench.sh [WORKDIR]
#   env: ROUNDS (9), ONLY (space-separated subset of: cold warm heic startup paint index),
#        READ_DIR (/var/tmp/walk-read-bench), THUMB_DIR (/var/tmp/photofs-thumbnail-bench),
#        STARTUP_CACHE (/var/tmp/photofs-startup-bench, with SEED=x10 as scale-bench's cache),
#        PICKER_DIR (/var/tmp/picker-ui-bench: a library-100000-SEED folder and its catalog with
#        warm thumbnails, as picker-ui-bench.sh leaves them; PICKER_SEED 42),
#        INDEX_DIR (/var/tmp/photofs-index-5k), PHOTOFS_CORPUS (real HEICs, optional).
# Needs root (cold caches), chromium with its driver, heif-convert and exiftool. Every
# benchmark makes what it lacks on first use (the 1,000,000-photo library takes half an hour).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PHOTOFS_BIN:?set PHOTOFS_BIN to the build to measure}"
WORK="${1:-/var/tmp/photofs-targets}"
ROUNDS="${ROUNDS:-9}"
ONLY="${ONLY:-cold warm heic startup paint index}"
OUT="$WORK/targets-$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$OUT"
BASE="${BASELINE_BIN:-}"

section() {
    local name="$1" title="$2"
    shift 2
    case " $ONLY " in *" $name "*) ;; *) return 0 ;; esac
    echo
    echo "## $title"
    echo
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC"
    echo
    if ! "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; then
        echo "targets-bench: $name failed, see $OUT/$name.err" >&2
    fi
    grep -E '^\|' "$OUT/$name.out" || tail -n 20 "$OUT/$name.out"
    echo
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC"
}

echo "# Targets, $ROUNDS paired rounds each: $PHOTOFS_BIN${BASE:+ against $BASE}"
section cold "cold find and ls -f of 100,000 names ÷ direct ext4" \
    env COLD_LISTING=compare RUNS="$ROUNDS" MANY_FILES=100000 PHOTOFS_BIN="$PHOTOFS_BIN" \
    ${BASE:+PHOTOFS_BASELINE_BIN="$BASE"} Tests/Benchmarks/read-bench.sh "${READ_DIR:-/var/tmp/walk-read-bench}"
section warm "warm small-file and random 4 KiB reads ÷ passthrough_ll (ro, cache=always)" \
    env WARM_READS=compare RUNS="$ROUNDS" MANY_FILES=100000 PHOTOFS_BIN="$PHOTOFS_BIN" \
    ${BASE:+PHOTOFS_BASELINE_BIN="$BASE"} Tests/Benchmarks/read-bench.sh "${READ_DIR:-/var/tmp/walk-read-bench}"
section heic "HEIC → JPEG ÷ heif-convert, wall and CPU" \
    env ROUNDS="$ROUNDS" GENERATED=8 REAL_COPIES=2 PHOTOFS_BIN="$PHOTOFS_BIN" ${BASE:+BASELINE_BIN="$BASE"} \
    Tests/Benchmarks/transcode-bench.sh "${THUMB_DIR:-/var/tmp/photofs-thumbnail-bench}"
section startup "1,000,000 assets: mount → ready and the first select" \
    env PHOTOFS_BENCH_CACHE="${STARTUP_CACHE:-/var/tmp/photofs-startup-bench}" SEED=x10 COUNT=1000000 \
    ROWS=startup STARTUP_RUNS="$ROUNDS" PHOTOFS_BIN="$PHOTOFS_BIN" ${BASE:+PHOTOFS_BIN_B="$BASE"} \
    Tests/Benchmarks/scale-bench.sh --no-build
picker_rounds() {
    local dir="${PICKER_DIR:-/var/tmp/picker-ui-bench}" seed="${PICKER_SEED:-42}"
    XDG_CACHE_HOME="$dir/cache" /usr/bin/python3 Tests/Benchmarks/picker_paint_rounds.py \
        "$dir/catalog-100000-$seed.sqlite" bench "$ROUNDS" "${BASE:-$PHOTOFS_BIN}" "$PHOTOFS_BIN"
}
section paint "picker page: navigation → first grid paint at 100,000 (warm thumbnails)" picker_rounds
section index "photofs index of 5,000 small JPEGs ÷ exiftool -fast, warm" \
    env COUNT=5000 SKIP_REAL=1 SCALE_COUNT=0 REINDEX_COUNT=0 PAIRED_ROUNDS="$ROUNDS" PAIRED_ONLY=1 \
    PHOTOFS_BIN="$PHOTOFS_BIN" ${BASE:+BASELINE_BIN="$BASE"} \
    Tests/Benchmarks/index-bench.sh "${INDEX_DIR:-/var/tmp/photofs-index-5k}"
echo
echo "every output: $OUT"
