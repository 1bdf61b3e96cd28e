#!/usr/bin/env bash
# RAW decoding with DarkroomRaw (LibRaw 0.20) against LibRaw's own dcraw_emu, on one large DNG in one run.
#
#   Benchmarks/raw.sh [--quick]
#
# Input: a generated Bayer DNG (full: 9504x6336, 60.2 MP as a Sony A7R IV; quick: 4000x3000) written by
# PiDNG (Benchmarks/make-raw-dng.py, installed into bench-out/rawvenv on the first run), with a
# full-size JPEG preview (Q90, made from dcraw_emu's half-size development scaled up) added as a
# second IFD as cameras embed one. Kept in bench-out/inputs/.
#
# Each step runs in its own raw-benchmark process (release) under GNU time: RawMetadata.read; the
# embedded preview decoded (at full size, and at 1/4 by libjpeg's shrink-on-load, what an import to
# 2048 px needs); half-size and full-size developments at 8 bits and full size at
# 16 bits, each copied into a libvips image. Prints wall seconds, peak RSS, the process's RSS before it
# opened the file, peak RSS against the image made, and the peak above that baseline against the photo's
# full-resolution 8-bit RGB size (memory.sh's "decode"; the issue's bound: about 2x). Then
# dcraw_emu (libraw-bin) on the same file with the same settings (camera white balance, sRGB curve),
# -h and full, writing its PPM to /dev/null.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then width=4000 height=3000; else width=9504 height=6336; fi
header "raw$([ $quick = 1 ] && echo ' (quick)') ${width}x${height}"
command -v dcraw_emu >/dev/null || { echo "needs dcraw_emu: apt-get install libraw-bin" >&2; exit 1; }

input=$(raw_dng "$width" "$height")
echo "input: $input, $(stat -c %s "$input") bytes"

(cd "$ROOT" && swift build -c release --static-swift-stdlib --product raw-benchmark >&2)
bin="$ROOT/.build/release/raw-benchmark"
bench_scratch raw

field() { awk -v k="$2:" '$1 == k {print $2; exit}' "$SCRATCH/$1.log"; }
mb() { calc "$1 / 1024"; }
printf '%-24s %9s %10s %12s %10s %11s %13s\n' step seconds "peak MB" "before MB" "image MB" "peak/image" "net/full-res"
row() {
  local name=$1 label=$2
  local secs; secs=$(field "$name" seconds); local peak=${!3}
  local before; before=$(field "$name" baseline_rss_kb)
  local bytes; bytes=$(field "$name" developed_bytes); bytes=${bytes:-$(field "$name" image_bytes)}
  local ratio="-"; [ -n "$bytes" ] && [ "$bytes" -gt 0 ] && ratio="$(calc "$peak * 1024 / $bytes")x"
  local full; full=$(field "$name" full_rgb8_bytes)
  local net="-"; [ -n "$full" ] && net="$(calc "($peak - ${before:-0}) * 1024 / $full")x"
  printf '%-24s %9s %10s %12s %10s %11s %13s\n' "$label" "$secs" "$(mb "$peak")" "$(mb "${before:-0}")" \
    "$([ -n "$bytes" ] && calc "$bytes / 1048576" || echo -)" "$ratio" "$net"
}
measure metadata "$bin" metadata "$input";            row metadata "metadata" metadata_rss
measure preview "$bin" preview "$input";              row preview "preview, decoded" preview_rss
measure preview4 "$bin" preview "$input" --shrink 4;  row preview4 "preview, 1/4 on load" preview4_rss
measure half "$bin" develop "$input" --half;          row half "half size, 8 bits" half_rss
measure full "$bin" develop "$input";                 row full "full size, 8 bits" full_rss
measure full16 "$bin" develop "$input" --bits 16;     row full16 "full size, 16 bits" full16_rss
measure p3 "$bin" develop "$input" --half --p3;       row p3 "half size, Display P3" p3_rss
measure dcraw_half sh -c "dcraw_emu -w -g 2.4 12.92 -h -Z - '$input' > /dev/null"
measure dcraw_full sh -c "dcraw_emu -w -g 2.4 12.92 -Z - '$input' > /dev/null"
printf '%-24s %9s %10s\n' "dcraw_emu -h" "$dcraw_half_wall" "$(mb "$dcraw_half_rss")"
printf '%-24s %9s %10s\n' "dcraw_emu (full)" "$dcraw_full_wall" "$(mb "$dcraw_full_rss")"
echo "(raw-benchmark's seconds are inside the process, from opening the file to the libvips image; dcraw_emu's are wall"
echo " seconds of the whole process, including writing its PPM to /dev/null. OMP threads: LibRaw's default, $(nproc) here.)"

full16_bytes=$(field full16 developed_bytes)
net_ratio() { calc "(${!2} - $(field "$1" baseline_rss_kb)) * 1024 / $(field "$1" full_rgb8_bytes)"; }
summary "raw: half develop net peak / photo" "$(net_ratio half half_rss)x" "~2x" "$(met le "$(net_ratio half half_rss)" 2.2)"
summary "raw: full develop net peak / photo" "$(net_ratio full full_rss)x" "~2x" "$(met le "$(net_ratio full full_rss)" 2.2)"
summary "raw: full 16-bit net peak / its image" "$(calc "($full16_rss - $(field full16 baseline_rss_kb)) * 1024 / $full16_bytes")x" "~2x" \
  "$(met le "$(calc "($full16_rss - $(field full16 baseline_rss_kb)) * 1024 / $full16_bytes")" 2.2)"
summary "raw: preview vs half develop (time)" "$(calc "$(field half seconds) / $(field preview seconds)")x faster" "-" "-"
summary "raw: 1/4 preview vs half develop (time)" "$(calc "$(field half seconds) / $(field preview4 seconds)")x faster" "-" "-"
summary "raw: half develop vs dcraw_emu -h" "$(calc "$dcraw_half_wall / $(field half seconds)")x" "-" "-"
summary "raw: full develop vs dcraw_emu" "$(calc "$dcraw_full_wall / $(field full seconds)")x" "-" "-"
