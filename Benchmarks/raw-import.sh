#!/usr/bin/env bash
# Importing RAW photos: Darkroom's import (resize `raw: auto`, the camera's preview, and `raw: develop`)
# against LibRaw's dcraw_emu -h + the vips CLI, and against darktable-cli, on the same files in one run.
#
#   Benchmarks/raw-import.sh [--quick]
#
# Inputs: N distinct DNGs of 6000x4000 (24 MP, as most cameras today) with a full-size JPEG preview, as
# cameras embed one: one Bayer DNG written by PiDNG (Benchmarks/make-raw-dng.py, installed into
# bench-out/rawvenv on the first run) with its preview (dcraw_emu's half-size development scaled up,
# Q90), copied N times with a few distinct bytes appended so that no copy is a duplicate. Full: N=24;
# --quick: N=6.
#
# Every tool makes, for each RAW, a 2048 px HEIC at quality 50 and a 200 px JPEG thumbnail, using both cores:
#   darkroom-auto     the shipped import pipeline (raw: auto: the preview covers 2048 px, so it is used)
#   darkroom-develop  the same with raw: develop (LibRaw, half size: 3000x2000 covers 2048)
#   dcraw-vips        xargs -P $(nproc): dcraw_emu -w -g 2.4 12.92 -h (half size, camera white balance,
#                     sRGB curve) to a PPM in /dev/shm, then vips thumbnail to the HEIC and to the JPEG
#   darktable         xargs -P $(nproc): darktable-cli --width 2048 to a JPEG (its default development),
#                     then vips copy to the HEIC and vips thumbnail to the JPEG; skipped when darktable-cli
#                     is not installed (apt-get install darktable)
# And, to see the RAW path without the HEIC encoder (x265 is 60 % of Darkroom's CPU above and costs
# the references as much), each makes a 2048 px JPEG and a 200 px JPEG instead:
#   darkroom-auto-jpeg  exif-date + thumbnail { sizes: [2048, 200] } (one decode of the preview for both)
#   dcraw-vips-jpeg     dcraw_emu -h to /dev/shm, vips thumbnail to each JPEG
# And what the HEIC encoder alone costs, on the 2048 px images darkroom-auto encodes: each DNG's embedded
# preview (exiftool -b -PreviewImage) scaled by vips thumbnail (shrink-on-load, Lanczos 3, as the import
# scales it), as PNGs made before timing (darkroom-auto's own HEICs decoded again would cost x265 about a
# third less: their compression smoothed them), under xargs -P $(nproc):
#   x265-darkroom       heif-enc -q 50 -p preset=medium (the import's encoder settings)
#   x265-vips           vips copy to a HEIC at Q=50 (libvips' defaults, as dcraw-vips encodes: x265's slow preset)
# No pipeline that writes the same HEICs with the import's settings can beat the faster reference by
# more than that reference's time over x265-darkroom's ("best possible").
# Each runs ROUNDS times (full 2, quick 1), interleaved; its fastest round counts. Target (issue 22):
# darkroom-auto 3x faster than the faster reference.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then n=6 rounds=${ROUNDS:-1}; else n=24 rounds=${ROUNDS:-2}; fi
header "raw-import$([ $quick = 1 ] && echo ' (quick)') $n DNGs of 6000x4000"
command -v dcraw_emu >/dev/null || { echo "needs dcraw_emu: apt-get install libraw-bin" >&2; exit 1; }
command -v exiftool >/dev/null || { echo "needs exiftool (the encoder rows' inputs are the DNGs' previews): apt-get install libimage-exiftool-perl" >&2; exit 1; }
bin=$(bench_bin)
bench_scratch raw-import

base=$(raw_dng 6000 4000)
in="$BENCH_OUT/inputs/raw-import-$n"
if [ "$(find "$in" -name '*.dng' 2>/dev/null | wc -l)" != "$n" ]; then
  rm -rf "$in"; mkdir -p "$in"
  for i in $(seq -w 1 "$n"); do cp "$base" "$in/DSC_$i.dng"; printf 'darkroom-benchmark-%s' "$i" >> "$in/DSC_$i.dng"; done
fi
cat "$in"/*.dng > /dev/null
echo "input: $in, $n files, $(calc "$(bytes_of "$in"/*.dng) / 1048576") MB"

pipeline() { sed "s/raw: auto/raw: $1/" "$ROOT/pipelines/import-camera-roll.yaml" > "$SCRATCH/import-$1.yaml"; echo "$SCRATCH/import-$1.yaml"; }
auto_yaml=$(pipeline auto); develop_yaml=$(pipeline develop)
cat > "$SCRATCH/jpeg.yaml" <<'YAML'
inputs:
  include: ["**/*.dng"]
steps:
  - exif-date:
      fallback-to-file-time: true
  - thumbnail:
      sizes: [2048, 200]
      format: jpeg
      output: "JPEG/{size}/{id}.jpg"
YAML

cat > "$SCRATCH/dcraw-vips.sh" <<'SH'
#!/usr/bin/env bash
set -e
out=$1; shift
for f in "$@"; do
  name=$(basename "$f" .dng); ppm=/dev/shm/raw-import-$$-$name.ppm
  dcraw_emu -w -g 2.4 12.92 -h -Z "$ppm" "$f"
  if [ "${JPEG_ONLY:-0}" = 1 ]; then
    vips thumbnail "$ppm" "$out/$name-2048.jpg[Q=80,strip]" 2048
  else
    vips thumbnail "$ppm" "$out/$name.heic[Q=50]" 2048
  fi
  vips thumbnail "$ppm" "$out/$name.jpg[Q=80,strip]" 200
  rm -f "$ppm"
done
SH
cat > "$SCRATCH/darktable.sh" <<'SH'
#!/usr/bin/env bash
set -e
out=$1; shift
config=$(mktemp -d /dev/shm/darktable-XXXXXX)
for f in "$@"; do
  name=$(basename "$f" .dng)
  darktable-cli "$f" "$out/$name.jpg" --width 2048 --height 2048 --hq false --core --configdir "$config" --library :memory: > /dev/null 2>&1
  vips copy "$out/$name.jpg" "$out/$name.heic[Q=50]"
  vips thumbnail "$out/$name.jpg" "$out/$name-thumb.jpg[Q=80,strip]" 200
done
rm -rf "$config"
SH
chmod +x "$SCRATCH/dcraw-vips.sh" "$SCRATCH/darktable.sh"
tools=(darkroom_auto darkroom_develop dcraw_vips darkroom_auto_jpeg dcraw_vips_jpeg x265_darkroom x265_vips)
command -v darktable-cli >/dev/null && tools+=(darktable) || echo "darktable-cli not installed: its row is skipped (apt-get install darktable)"

# encoder_inputs: each DNG's preview at 2048 px as a PNG (made once, not timed), the encoder rows' input.
encoder_inputs() {
  local pngs="$SCRATCH/encoder-in"
  if [ ! -d "$pngs" ]; then
    mkdir -p "$pngs"
    for f in "$in"/*.dng; do
      local name; name=$(basename "$f" .dng)
      exiftool -b -PreviewImage "$f" > "$pngs/$name-preview.jpg"
      vips thumbnail "$pngs/$name-preview.jpg" "$pngs/$name.png" 2048 && rm "$pngs/$name-preview.jpg"
    done
  fi
  echo "$pngs"
}

run_tool() {
  local tool=$1 out="$SCRATCH/out-$1"
  rm -rf "$out"; mkdir -p "$out"
  case $tool in
    x265_darkroom) local pngs; pngs=$(encoder_inputs)
      measure "$tool" sh -c "ls '$pngs'/*.png | xargs -P $JOBS -I{} sh -c 'heif-enc -q 50 -p preset=medium \"\$1\" -o \"$out/\$(basename \"\$1\" .png).heic\" > /dev/null' _ {}" ;;
    x265_vips) local pngs; pngs=$(encoder_inputs)
      measure "$tool" sh -c "ls '$pngs'/*.png | VIPS_CONCURRENCY=1 xargs -P $JOBS -I{} sh -c 'vips copy \"\$1\" \"$out/\$(basename \"\$1\" .png).heic[Q=50]\"' _ {}" ;;
    darkroom_auto) measure "$tool" "$bin" run "$auto_yaml" --input "$in" --library "$out" --jobs "$JOBS" ;;
    darkroom_develop) measure "$tool" "$bin" run "$develop_yaml" --input "$in" --library "$out" --jobs "$JOBS" ;;
    dcraw_vips) measure "$tool" sh -c "ls '$in'/*.dng | VIPS_CONCURRENCY=1 xargs -P $JOBS -n 2 '$SCRATCH/dcraw-vips.sh' '$out'" ;;
    darkroom_auto_jpeg) measure "$tool" "$bin" run "$SCRATCH/jpeg.yaml" --input "$in" --library "$out" --jobs "$JOBS" ;;
    dcraw_vips_jpeg) measure "$tool" sh -c "ls '$in'/*.dng | JPEG_ONLY=1 VIPS_CONCURRENCY=1 xargs -P $JOBS -n 2 '$SCRATCH/dcraw-vips.sh' '$out'" ;;
    darktable) measure "$tool" sh -c "ls '$in'/*.dng | xargs -P $JOBS -n 4 '$SCRATCH/darktable.sh' '$out'" ;;
  esac
}
declare -A best best_cpu best_rss
for round in $(seq 1 "$rounds"); do
  for tool in "${tools[@]}"; do
    run_tool "$tool"
    wall="${tool}_wall"; cpu="${tool}_cpu"; rss="${tool}_rss"
    if [ -z "${best[$tool]:-}" ] || le "${!wall}" "${best[$tool]}"; then
      best[$tool]=${!wall}; best_cpu[$tool]=${!cpu}; best_rss[$tool]=${!rss}
    fi
  done
done

printf '\n%-20s %9s %9s %9s %10s %12s\n' tool "wall s" "CPU s" "photos/s" "peak MB" "HEICs/JPEGs"
for tool in "${tools[@]}"; do
  made="$(find "$SCRATCH/out-$tool" -name '*.heic' | wc -l)/$(find "$SCRATCH/out-$tool" -name '*.jpg' | wc -l)"
  printf '%-20s %9s %9s %9s %10s %12s\n' "$tool" "${best[$tool]}" "${best_cpu[$tool]}" "$(calc "$n / ${best[$tool]}")" \
    "$(calc "${best_rss[$tool]} / 1024")" "$made"
done
grep -m1 "found:" "$SCRATCH/darkroom_auto.log" || true
first=$(find "$SCRATCH/out-darkroom_auto/Photos" -name '*.heic' | head -1)
[ -n "$first" ] && echo "darkroom-auto HEIC: $(vipsheader "$first")"

faster=${best[dcraw_vips]}; faster_name=dcraw-vips
if [ -n "${best[darktable]:-}" ] && le "${best[darktable]}" "$faster"; then faster=${best[darktable]}; faster_name=darktable; fi
ratio=$(calc "$faster / ${best[darkroom_auto]}")
summary "raw import auto vs $faster_name" "${ratio}x" ">= 3x" "$(met ge "$ratio" 3)"
summary "raw import develop vs dcraw-vips" "$(calc "${best[dcraw_vips]} / ${best[darkroom_develop]}")x" "-" "-"
summary "raw import auto vs $faster_name (CPU)" "$(calc "${best_cpu[${faster_name/-/_}]} / ${best_cpu[darkroom_auto]}")x" "-" "-"
summary "raw import best possible vs $faster_name" "$(calc "$faster / ${best[x265_darkroom]}")x" "(3x asked)" \
  "CPU $(calc "${best_cpu[${faster_name/-/_}]} / ${best_cpu[x265_darkroom]}")x"
summary "raw to JPEG auto vs dcraw-vips" "$(calc "${best[dcraw_vips_jpeg]} / ${best[darkroom_auto_jpeg]}")x" "-" "-"
summary "raw to JPEG auto vs dcraw-vips (CPU)" "$(calc "${best_cpu[dcraw_vips_jpeg]} / ${best_cpu[darkroom_auto_jpeg]}")x" "-" "-"
