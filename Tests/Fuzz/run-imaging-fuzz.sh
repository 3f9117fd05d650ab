#!/usr/bin/env bash
# Builds the imaging libFuzzer binary once (PhotoCore and PhotoImaging sources, copied
# first so that edits during the long build do not break it, compiled with swiftc
# -sanitize=fuzzer,address and linked against the system libjpeg-turbo, libheif, libpng and
# libwebp, libjxl) and runs each target (PHOTOFS_FUZZ_TARGET) for a bounded time, PARALLEL at once.
#
#   Tests/Fuzz/run-imaging-fuzz.sh [seconds-per-target] [target ...]   (env: PARALLEL, default 2)
#
# Targets: JPEGThumbnailFuzz JPEGEighthScaleFuzz HEIFThumbnailFuzz PNGWebPThumbnailFuzz TIFFPreviewFuzz
# DecoderFrameFuzz JXLFuzz (default: all). The C libraries are not instrumented: coverage guides the
# Swift side (container and preview parsing, resizing, orientation, PNG chunks, frames),
# while every input still runs through the real decoders under AddressSanitizer.
# Seeds: small complete images made here (ImageMagick, heif-enc when present) and every
# corpus file under 128 KiB ($PHOTOFS_CORPUS, else ../shared/corpus beside the package), and the
# inputs in Tests/Fuzz/regressions/ that once crashed, hung or ran out of memory.
# Reproducers land in .build/fuzz/crashes/. Exit status is non-zero when a target crashed,
# hung (30 s per input) or leaked.
set -euo pipefail

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(JPEGThumbnailFuzz JPEGEighthScaleFuzz HEIFThumbnailFuzz PNGWebPThumbnailFuzz TIFFPreviewFuzz DecoderFrameFuzz JXLFuzz)
parallel="${PARALLEL:-2}"

root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/.build/fuzz"
mkdir -p "$out/crashes"

corpus="${PHOTOFS_CORPUS:-}"
for candidate in "$root/../shared/corpus" "$root/../../shared/corpus"; do
    [ -n "$corpus" ] || { [ -f "$candidate/manifest.json" ] && corpus="$candidate"; } || true
done

if ! ls "$(dirname "$(command -v swiftc)")/../lib/clang/"*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    echo "run-imaging-fuzz: the Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer); cannot fuzz" >&2
    exit 2
fi

seeds="$out/imaging-seeds"
if [ ! -d "$seeds" ]; then
    mkdir -p "$seeds"
    if command -v convert >/dev/null; then
        convert -size 96x64 gradient:red-blue -set comment x "$seeds/gradient.jpg"
        convert -size 96x64 plasma:fractal -orient RightTop "$seeds/oriented.jpg"
        convert -size 40x30 gradient:green-yellow -alpha set -channel A -evaluate set 50% "$seeds/alpha.png"
        convert -size 40x30 plasma:fractal "$seeds/plain.png"
        convert -size 48x32 plasma:fractal "$seeds/plain.webp" 2>/dev/null || true
        convert -size 64x48 plasma:fractal -compress none "$seeds/plain.tif"
    fi
    if command -v cjpeg >/dev/null && command -v djpeg >/dev/null && [ -f "$seeds/oriented.jpg" ]; then
        # The sequential layouts the 1/8 decoder reads: subsamplings, grey, restarts, one scan per component.
        djpeg -outfile "$seeds/oriented.ppm" "$seeds/oriented.jpg"
        printf '0;\n1;\n2;\n' >"$seeds/separate.scans"
        for options in "-sample 2x1" "-sample 1x1 -restart 1B" "-grayscale" "-restart 1" "-optimize -quality 98" "-scans $seeds/separate.scans"; do
            # shellcheck disable=SC2086 # the options are words
            cjpeg $options -outfile "$seeds/cjpeg-$(echo "$options" | tr -c 'A-Za-z0-9' _).jpg" "$seeds/oriented.ppm"
        done
        rm -f "$seeds/oriented.ppm" "$seeds/separate.scans"
    fi
    if command -v heif-enc >/dev/null && [ -f "$seeds/gradient.jpg" ]; then
        heif-enc -q 30 -t 32 -o "$seeds/small.heic" "$seeds/gradient.jpg" >/dev/null 2>&1 || true
        heif-enc -A -q 30 -o "$seeds/small.avif" "$seeds/gradient.jpg" >/dev/null 2>&1 || true
    fi
    if command -v cjxl >/dev/null && [ -f "$seeds/gradient.jpg" ]; then
        cjxl "$seeds/gradient.jpg" "$seeds/recompressed.jxl" >/dev/null 2>&1 || true
        cjxl "$seeds/plain.png" "$seeds/lossy.jxl" -d 2 >/dev/null 2>&1 || true
        cjxl "$seeds/alpha.png" "$seeds/lossless.jxl" -d 0 >/dev/null 2>&1 || true
    fi
    if [ -n "$corpus" ]; then
        find "$corpus" -type f -size -128k ! -name '*.json' ! -name '*.md' -print0 |
            while IFS= read -r -d '' file; do cp "$file" "$seeds/corpus-$(basename "$file" | tr -c 'A-Za-z0-9._-' _)"; done
    fi
fi

snapshot="$out/imaging-src"
rm -rf "$snapshot"
mkdir -p "$snapshot"
cp -r "$root/Sources/MediaFormats" "$root/Sources/SystemKit" "$root/Sources/PhotoImaging" "$snapshot/"
# SystemKit is compiled into the same module: its imports go.
find "$snapshot" -name '*.swift' -exec sed -i '/^import SystemKit$/d' {} +
for file in ImagingFuzzSupport ImagingFuzzMain JPEGThumbnailFuzz JPEGEighthScaleFuzz HEIFThumbnailFuzz PNGWebPThumbnailFuzz TIFFPreviewFuzz DecoderFrameFuzz JXLFuzz; do
    cp "$root/Tests/Fuzz/$file.swift" "$snapshot/"
done
sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find "$snapshot" -name '*.swift' ! -name CompatibleCache.swift ! -name CompatibleRepresentations.swift \
    ! -name 'ThumbnailService+Assets.swift' | sort)
includes=()
for door in CSystem CTurboJPEG CHeif CPNG CWebP CJXL CGIF CTIFF CAV CSeccomp; do includes+=(-I "$root/Sources/$door"); done
for flag in $(pkg-config --cflags libturbojpeg libheif libpng libwebp libjxl libgif libtiff-4 libavformat libavcodec libswscale libavutil libseccomp); do includes+=(-Xcc "$flag"); done

run() {
    local target="$1" work="$out/corpus-$1"
    mkdir -p "$work"
    if ! LSAN_OPTIONS="suppressions=$root/Tests/Fuzz/lsan-suppressions.txt" PHOTOFS_FUZZ_TARGET="$target" "$out/ImagingFuzz" "$work" "$seeds" \
        "$root/Tests/Fuzz/regressions" -max_total_time="$seconds" -max_len=131072 -timeout=30 -rss_limit_mb=3072 \
        -print_final_stats=1 -artifact_prefix="$out/crashes/$target-" >"$out/$target.log" 2>&1; then
        echo "!! $target failed; see $out/$target.log and $out/crashes/" >&2
        return 1
    fi
    echo "== $target: $(grep -E "stat::number_of_executed_units" "$out/$target.log" | awk '{print $2}') inputs in ${seconds}s, no crash"
}

echo "== building ImagingFuzz"
# One module named MediaFormats (with SystemKit's files), so the PhotoImaging files'
# `import MediaFormats` is a no-op.
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -suppress-warnings -module-name MediaFormats "${includes[@]}" \
    "${sources[@]}" -o "$out/ImagingFuzz" 2> >(grep -v -e "Cannot export local symbol" >&2)

status=0
pids=()
for target in "${targets[@]}"; do
    run "$target" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$parallel" ]; then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
