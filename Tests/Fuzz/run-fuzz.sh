#!/usr/bin/env bash
# Builds the libFuzzer targets (MediaFormats sources compiled straight into each target with
# swiftc -sanitize=fuzzer,address) and runs each for a bounded time.
#
#   Tests/Fuzz/run-fuzz.sh [seconds-per-target] [target ...]
#
# Targets: TIFFWalkerFuzz PlannerFuzz ContainerWalkerFuzz JXLWalkerFuzz RIFFWalkerFuzz FLIRFuzz
# AFCPFuzz GPMFWalkerFuzz (default: all). Tests/Fuzz/seeds/TARGET/ holds small hand-made seeds for a target.
# Seeds come from the first KBs of the shared corpus files ($PHOTOFS_CORPUS, else
# ../shared/corpus or ../../shared/corpus beside the package); the growing corpus and any
# crash reproducer are kept in .build/fuzz/. Tests/Fuzz/regressions/ holds inputs that once
# crashed or hung a target; they are replayed as seeds. Exit status is non-zero when a
# target crashed, hung (10 s per input) or leaked.
set -euo pipefail

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(TIFFWalkerFuzz PlannerFuzz ContainerWalkerFuzz JXLWalkerFuzz RIFFWalkerFuzz FLIRFuzz AFCPFuzz GPMFWalkerFuzz)

root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/.build/fuzz"
mkdir -p "$out"

corpus="${PHOTOFS_CORPUS:-}"
for candidate in "$root/../shared/corpus" "$root/../../shared/corpus"; do
    [ -n "$corpus" ] || { [ -f "$candidate/manifest.json" ] && corpus="$candidate"; } || true
done

if ! ls "$(dirname "$(command -v swiftc)")/../lib/clang/"*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    echo "run-fuzz: the Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer); cannot fuzz" >&2
    exit 2
fi

# Seeds: the first 16 KiB of every corpus file, and for the TIFF walker the 16 KiB after
# each EXIF TIFF header found in them (so the walker starts at a header).
seeds="$out/seeds"
if [ -n "$corpus" ] && [ ! -d "$seeds" ]; then
    mkdir -p "$seeds/files" "$seeds/tiff"
    python3 - "$corpus" "$seeds" <<'PY'
import os, sys
corpus, seeds = sys.argv[1], sys.argv[2]
n = 0
for dirpath, _, names in os.walk(corpus):
    for name in names:
        if name.endswith(('.json', '.md')):
            continue
        data = open(os.path.join(dirpath, name), 'rb').read()
        n += 1
        open(os.path.join(seeds, 'files', '%03d' % n), 'wb').write(data[:16384])
        for magic in (b'II*\x00', b'MM\x00*'):
            at = data.find(magic)
            if at >= 0:
                open(os.path.join(seeds, 'tiff', '%03d-%d' % (n, at)), 'wb').write(data[at:at + 16384])
PY
fi

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find "$root/Sources/MediaFormats" -name '*.swift' | sort)

status=0
for target in "${targets[@]}"; do
    binary="$out/$target"
    echo "== building $target"
    swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -module-name "${target}Module" \
        "${sources[@]}" "$root/Tests/Fuzz/FuzzSupport.swift" "$root/Tests/Fuzz/$target.swift" -o "$binary" \
        2> >(grep -v "Cannot export local symbol" >&2)
    work="$out/corpus-$target"
    mkdir -p "$work" "$out/crashes"
    # Inputs that once crashed or hung a target are always replayed first.
    seed_dirs=("$root/Tests/Fuzz/regressions")
    [ -d "$root/Tests/Fuzz/seeds/$target" ] && seed_dirs+=("$root/Tests/Fuzz/seeds/$target")
    if [ -d "$seeds" ]; then
        if [ "$target" = TIFFWalkerFuzz ]; then seed_dirs+=("$seeds/tiff"); else seed_dirs+=("$seeds/files"); fi
    fi
    echo "== running $target for ${seconds}s"
    if ! "$binary" "$work" "${seed_dirs[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/crashes/$target-" 2>"$out/$target.log"; then
        echo "!! $target failed; see $out/$target.log and $out/crashes/" >&2
        status=1
    fi
    grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$out/$target.log" | tail -3 || true
done
exit $status
