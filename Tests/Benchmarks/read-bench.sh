#!/usr/bin/env bash
# Read benchmark: direct reads, libfuse's passthrough_ll as shipped and with
# -o cache=always, and photofs library/all, on one generated library in one run.
# Usage: Tests/Benchmarks/read-bench.sh [WORKDIR]   (env: RUNS, SMALL_FILES, MANY_FILES, LARGE_MB;
#        PHOTOFS_BIN to measure a given build instead of building one; PHOTOFS_BASELINE_BIN to
#        measure a second build in the same run, e.g. before a change). As root, adds cold
#        `ls -f` and `find` rows (dentries and inodes dropped before each) of the flat folder
#        as photofs `library/folders/flat`.
# ACCESS_LOG=compare: instead, photofs with the access log on vs off (accesslog_bench.py).
# COLD_LISTING=compare: instead, cold `ls -f` and `find` of the flat folder, direct and each
#        build side by side in rotating rounds, wall and CPU time (coldlist_bench.py, root).
# WARM_READS=compare: instead, warm small-file and random 4 KiB reads, passthrough_ll tuned
#        read-only (-o ro,cache=always) and each build in rotating rounds (warmread_bench.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PHOTOFS_BIN:-}" ]; then
    swift build -c release >&2
    export PHOTOFS_BIN="$PWD/.build/release/photofs"
fi
export BENCH_DIR="${1:-/tmp/photofs-read-bench}"
mkdir -p "$BENCH_DIR"
examples=/usr/share/doc/libfuse3-dev/examples
export PLL_BIN="$BENCH_DIR/passthrough_ll"
if [ ! -x "$PLL_BIN" ]; then
    src="$examples/passthrough_ll.c"
    [ -f "$src" ] || { zcat "$src.gz" > "$BENCH_DIR/passthrough_ll.c"; src="$BENCH_DIR/passthrough_ll.c"; }
    gcc -O2 -I"$examples" "$src" $(pkg-config --cflags --libs fuse3) -o "$PLL_BIN"
fi
[ "${ACCESS_LOG:-}" = compare ] && exec python3 Tests/Benchmarks/accesslog_bench.py
[ "${COLD_LISTING:-}" = compare ] && exec python3 Tests/Benchmarks/coldlist_bench.py
[ "${WARM_READS:-}" = compare ] && exec python3 Tests/Benchmarks/warmread_bench.py
exec python3 Tests/Benchmarks/read_bench.py
