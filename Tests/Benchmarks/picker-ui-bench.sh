#!/usr/bin/env bash
# Picker page benchmark: `photofs pick` over a catalogued library of 100,000 generated photos
# with warm thumbnails (`photofs thumbnails --size normal` fills a freedesktop cache under
# WORKDIR first; the page serves from it), opened in headless
# Chromium: time to the first painted grid, time to jump to months (Chromium's performance
# timings, two animation frames after the jump), and the picker process's memory before the
# page is opened and after the grid and every jump (VmRSS, MB = 10^6 bytes). Then fast
# scrolls: through the whole grid, and to POSITIONS places; after each, the time until every
# visible tile is filled, with the thumbnails asked for and cancelled on the way; once with
# the warm cache, once with an empty one (cold: every thumbnail made on demand).
#
# With PHOTOFS_BASELINE_BIN (another build), first ROUNDS paired rounds of the picker's start
# (Tests/Benchmarks/picker_paint_rounds.py): each build started in turn, alternating which
# goes first, timed from the command to its printed link and from navigation to the first
# grid paint, with the medians and the median per-round ratio.
#
# Usage: Tests/Benchmarks/picker-ui-bench.sh [WORKDIR]
#        (env: COUNT=100000, SEED=11, JUMPS=24, POSITIONS=5, CONFIG=release,
#         PHOTOFS_BIN=a built photofs instead of building one, PHOTOFS_BASELINE_BIN, ROUNDS=9,
#         BASELINE_CATALOG=the baseline's own copy when the catalog schema changed between them)
# Needs chromium, chromium-driver and python3-selenium (mount-scripts/install-deps).
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Benchmarks/bench-setup.sh

bench_defaults COUNT=100000 SEED=11 JUMPS=24 POSITIONS=5 CONFIG=release ROUNDS=9

bench_photofs picker-ui-bench "$CONFIG"
bench_work "${1:-/tmp/photofs-picker-ui-bench}"
LIB="$WORK/library-$COUNT-$SEED"
CATALOG="$WORK/catalog-$COUNT-$SEED.sqlite"
bench_library picker-ui-bench "$LIB" "$CATALOG" "$COUNT" "$SEED"
"$PHOTOFS" app add bench --catalog "$CATALOG" > /dev/null 2>&1 || true
# Warm thumbnails, in the benchmark's own cache (kept between runs; only missing ones are made).
export XDG_CACHE_HOME="$WORK/cache"
echo "picker-ui-bench: warming the thumbnail cache" >&2
"$PHOTOFS" thumbnails --quiet --size normal --catalog "$CATALOG" >&2 || echo "picker-ui-bench: some thumbnails failed (see above)" >&2

if [ -n "${PHOTOFS_BASELINE_BIN:-}" ]; then
    echo "picker-ui-bench: $ROUNDS paired rounds of the picker's start against $PHOTOFS_BASELINE_BIN" >&2
    /usr/bin/python3 Tests/Benchmarks/picker_paint_rounds.py "$CATALOG" bench "$ROUNDS" "$PHOTOFS_BASELINE_BIN" "$PHOTOFS" \
        ${BASELINE_CATALOG:+"$BASELINE_CATALOG"} | tee "$WORK/rounds.txt" | grep -v '^{' || true
fi

PICK=""
cleanup() { if [ -n "$PICK" ] && kill -0 "$PICK" 2>/dev/null; then kill "$PICK"; wait "$PICK" 2>/dev/null || true; fi; }
trap cleanup EXIT
"$PHOTOFS" pick bench --no-open --catalog "$CATALOG" > "$WORK/pick.out" 2>&1 &
PICK=$!
for _ in $(seq 1 600); do grep -q '?token=' "$WORK/pick.out" && break; sleep 0.1; done
URL=$(grep -o 'http://[^ ]*' "$WORK/pick.out")
rss() { awk '$1 == "VmRSS:" { printf "%.1f", $2 * 1024 / 1e6 }' "/proc/$PICK/status"; }
BEFORE=$(rss)
/usr/bin/python3 Tests/Benchmarks/picker_ui_bench.py "$URL" "$JUMPS" "$POSITIONS" > "$WORK/timings.json"
AFTER=$(rss)
HWM=$(awk '$1 == "VmHWM:" { printf "%.1f", $2 * 1024 / 1e6 }' "/proc/$PICK/status")
kill "$PICK"; wait "$PICK" 2>/dev/null || true
# Cold: the same page with an empty thumbnail cache.
COLD="$WORK/cold-cache"
rm -rf "$COLD"
XDG_CACHE_HOME="$COLD" "$PHOTOFS" pick bench --no-open --catalog "$CATALOG" > "$WORK/pick-cold.out" 2>&1 &
PICK=$!
for _ in $(seq 1 600); do grep -q '?token=' "$WORK/pick-cold.out" && break; sleep 0.1; done
URL=$(grep -o 'http://[^ ]*' "$WORK/pick-cold.out")
/usr/bin/python3 Tests/Benchmarks/picker_ui_bench.py "$URL" 0 "$POSITIONS" > "$WORK/timings-cold.json"
rm -rf "$COLD"
/usr/bin/python3 - "$WORK/timings.json" "$COUNT" "$BEFORE" "$AFTER" "$HWM" "$WORK/timings-cold.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
cold = json.load(open(sys.argv[6]))
count, before, after, hwm = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
jumps = sorted(t["jumps"])
median = jumps[len(jumps) // 2]
print(f"| metric ({count:,} assets, {t['months']} months) | value | target |")
print("|---|---:|---|")
print(f"| first grid paint (navigation start to painted grid) | {t['first_paint']:.0f} ms | <= 500 ms ({'met' if t['first_paint'] <= 500 else 'missed'}) |")
print(f"| jump to a month, median of {len(jumps)} | {median:.1f} ms | |")
print(f"| jump to a month, worst of {len(jumps)} | {jumps[-1]:.1f} ms | <= 300 ms ({'met' if jumps[-1] <= 300 else 'missed'}) |")
print(f"| tiles in the document after the jumps | {t['tiles']} | (virtualized) |")
print(f"| picker VmRSS before the page / after | {before:.1f} MB / {after:.1f} MB (peak {hwm:.1f}) | |")
print(f"| memory the page's serving added | {after - before:.1f} MB | <= 50 MB ({'met' if after - before <= 50 else 'missed'}) |")
for name, run, target in (("warm", t, 1000), ("cold", cold, 3000)):
    for scroll in run["scrolls"]:
        fill = scroll["fill"]
        verdict = "met" if 0 <= fill <= target else "missed"
        follows = scroll.get("month", {}).get("follows")
        print(f"| {name}: fast scroll to {scroll['to']}, visible tiles filled | {fill:.0f} ms ({scroll['tiles']} tiles, "
              f"{scroll.get('requested', '?')} asked, {scroll.get('cancelled', '?')} cancelled on the way, month list follows: {follows}) "
              f"| <= {target} ms ({verdict}) |")
PY
