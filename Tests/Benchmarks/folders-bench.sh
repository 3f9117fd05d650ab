#!/usr/bin/env bash
# Warm `find -printf %s` of library/folders (VIEW): the direct tree and photofs, and a
# second build (PHOTOFS_BASELINE_BIN) when given, mounted at the same time and measured in
# rotating rounds after two untimed passes each, so a loaded machine slows every target
# alike. Reports medians and each target's speed as a ratio to the direct tree.
#
# Usage: LIBRARY=<library> CATALOG=<catalog copy> Tests/Benchmarks/folders-bench.sh
#        (env: PHOTOFS_BIN, default the release build, built first; PHOTOFS_BASELINE_BIN with
#        BASELINE_CATALOG, a second copy; ROUNDS=5; VIEW=library/folders). A mount writes
#        to its catalog: give each build its own up-to-date copy (`photofs index --catalog
#        COPY LIBRARY` once), e.g. of scale-bench's cached catalog. Run by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PHOTOFS_BIN:-}" ]; then
    swift build -c release >&2
    export PHOTOFS_BIN="$PWD/.build/release/photofs"
fi
: "${LIBRARY:?LIBRARY: the library to mount}" "${CATALOG:?CATALOG: a catalog copy for PHOTOFS_BIN}"
export LIBRARY CATALOG
exec python3 Tests/Benchmarks/folders_bench.py
