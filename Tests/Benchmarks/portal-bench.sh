#!/usr/bin/env bash
# Desktop portal benchmark: from an app's FileChooser OpenFile (image filter, through the real
# xdg-desktop-portal on a private session bus) to the first painted grid of the picker window
# `photofs portal` opens, on a mounted library of COUNT generated photos (thumbnails not
# warmed: the grid paints before they arrive). The browser runs already (headless Chromium);
# its start is not counted. Target: <= 1 s at 100,000 assets.
#
# Usage: Tests/Benchmarks/portal-bench.sh [WORKDIR]     (env: COUNT=100000, SEED=11, RUNS=5,
#        PHOTOFS_BIN=a built photofs instead of building the release one)
# Needs dbus, xdg-desktop-portal, python3-gi, chromium, chromium-driver, python3-selenium
# (mount-scripts/install-deps).
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Benchmarks/bench-setup.sh

bench_defaults COUNT=100000 SEED=11 RUNS=5

bench_photofs portal-bench
bench_work "${1:-/tmp/photofs-portal-bench}"
LIB="$WORK/library-$COUNT-$SEED"
CATALOG="$WORK/catalog-$COUNT-$SEED.sqlite"
MNT="$WORK/mnt"
bench_library portal-bench "$LIB" "$CATALOG" "$COUNT" "$SEED"
mkdir -p "$MNT" "$WORK/bus"
export XDG_CACHE_HOME="$WORK/cache"
"$PHOTOFS" mount --quiet --catalog "$CATALOG" -- "$LIB" "$MNT"
cleanup() { "$PHOTOFS" unmount "$MNT" > /dev/null 2>&1 || true; }
trap cleanup EXIT
cat > "$WORK/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$WORK/bus</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$WORK/bus</servicedir>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
echo "portal-bench: $RUNS runs" >&2
dbus-run-session --config-file="$WORK/bus.conf" -- /usr/bin/python3 Tests/Benchmarks/portal_bench.py \
    "$PHOTOFS" "$MNT" "$CATALOG" "$WORK" "$RUNS"
