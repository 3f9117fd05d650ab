#!/usr/bin/env bash
# Mount benchmark: how long `photofs mount LIBRARY MOUNTPOINT` takes to hand back
# a working mount of an already-indexed library, and how much memory the daemon keeps.
# Prints a markdown table of medians on stdout, with the issue's targets.
#
# Usage: Tests/Benchmarks/mount-bench.sh [WORKDIR]     (env: RUNS=5, COUNTS="10000 100000", SEED=7)
#
# Per library size: `photofs generate` writes the library once (kept in WORKDIR and reused
# while the count and seed stay the same), `photofs index` catalogues it (incremental, so
# a rerun costs a stat walk). Then RUNS times: time `photofs mount` in background mode
# (the parent returns once the mount is ready) until it exits; check that library/all
# lists every asset; read the daemon's VmRSS from /proc after that listing and again after
# `find MOUNT -printf %s` (readdir + stat of every node); unmount and wait for the daemon
# to exit. The catalog and library stay in the page cache between runs (warm start).
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Benchmarks/bench-setup.sh

bench_defaults RUNS=5 "COUNTS=10000 100000" SEED=7

# PHOTOFS_BIN: a photofs binary to use instead of building one.
bench_photofs mount-bench
bench_work "${1:-/tmp/photofs-mount-bench}"

MNT=""
DAEMON=""
cleanup() {
    if [ -n "$MNT" ]; then
        if mountpoint -q "$MNT" 2>/dev/null || grep -q " $MNT " /proc/self/mounts 2>/dev/null; then
            fusermount3 -u "$MNT" 2>/dev/null || fusermount3 -uz "$MNT" 2>/dev/null || true
        fi
        rmdir "$MNT" 2>/dev/null || true
    fi
    if [ -n "$DAEMON" ] && kill -0 "$DAEMON" 2>/dev/null; then
        kill "$DAEMON" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# rss_mb PID FIELD -> the field (VmRSS, VmHWM) of /proc/PID/status in MB (10^6 bytes)
rss_mb() { awk -v f="$2:" '$1 == f { printf "%.1f", $2 * 1024 / 1e6 }' "/proc/$1/status"; }

# The daemon of the mount at $1: the only process whose command line names that mountpoint.
daemon_of() { pgrep -f -- "--ready-fd 3 .* $1\$" | head -n 1; }

declare -A ROW
for COUNT in $COUNTS; do
    LIB="$WORK/library-$COUNT-$SEED"
    CATALOG="$WORK/catalog-$COUNT-$SEED.sqlite"
    bench_library mount-bench "$LIB" "$CATALOG" "$COUNT" "$SEED"
    assets=$("$PHOTOFS" ls --catalog "$CATALOG" --count)

    times=""
    rss_ls=""
    rss_find=""
    rss_ready=""
    hwm=""
    for run in $(seq 1 "$RUNS"); do
        MNT=$(mktemp -d "$WORK/mnt.XXXXXX")
        t0=$(now)
        "$PHOTOFS" mount --quiet --catalog "$CATALOG" "$LIB" "$MNT" >&2
        t1=$(now)
        DAEMON=$(daemon_of "$MNT")
        [ -n "$DAEMON" ] || { echo "mount-bench: no daemon found for $MNT" >&2; exit 1; }
        rss_ready+=" $(rss_mb "$DAEMON" VmRSS)"
        listed=$(ls -f "$MNT/library/all" | grep -vc '^\.\.\?$' || true)
        if [ "$listed" -ne "$assets" ]; then
            echo "mount-bench: library/all lists $listed names, the catalog has $assets assets" >&2
            exit 1
        fi
        rss_ls+=" $(rss_mb "$DAEMON" VmRSS)"
        find "$MNT" -printf '%s\n' > /dev/null
        rss_find+=" $(rss_mb "$DAEMON" VmRSS)"
        hwm+=" $(rss_mb "$DAEMON" VmHWM)"
        times+=" $(elapsed "$t0" "$t1")"
        "$PHOTOFS" unmount "$MNT" >&2 2>/dev/null || fusermount3 -u "$MNT"
        for _ in $(seq 1 300); do kill -0 "$DAEMON" 2>/dev/null || break; sleep 0.05; done
        DAEMON=""
        rmdir "$MNT"
        MNT=""
        echo "mount-bench: $COUNT assets, run $run: $(echo "$times" | awk '{ print $NF }') s" >&2
    done
    ROW[$COUNT]="| $assets | $(echo "$times" | median) | $(echo "$rss_ready" | median) | $(echo "$rss_ls" | median) | $(echo "$rss_find" | median) | $(echo "$hwm" | median) |"
    echo "mount-bench: $COUNT assets: times$times; RSS after find$rss_find" >&2
done

echo "### Mount benchmark: $(nproc) cores, $(date -u +%Y-%m-%d), medians of $RUNS runs"
echo
echo "Library made by \`photofs generate --count N --seed $SEED\` and indexed once; each run mounts it"
echo "with \`photofs mount\` (background mode, returns when the mount is ready), lists library/all,"
echo "runs \`find MOUNT -printf %s\`, unmounts. Memory is the daemon's, from /proc/PID/status (MB = 10^6 bytes)."
echo
echo "| assets | mount → ready (s) | VmRSS ready (MB) | VmRSS after ls (MB) | VmRSS after find (MB) | VmHWM (MB) |"
echo "|---:|---:|---:|---:|---:|---:|"
for COUNT in $COUNTS; do echo "${ROW[$COUNT]}"; done
echo
echo "Targets, at 100,000 assets: mount → ready ≤ 2 s; daemon VmRSS ≤ 200 MB."
