#!/usr/bin/env bash
# Chooses heic-encode's default quality and preset by measurement.
#
# For real camera photos from ../shared/corpus (and generated ones), each resized to 2048 px exactly as
# the import does, it encodes HEIC through Darkroom at several qualities and x265 presets, decodes the
# result again, and prints: SSIM against the resized source, total bytes relative to a JPEG at
# quality 80 of the same pixels, and encode time.
#   Benchmarks/heic-quality.sh [--quick]
source "$(dirname "$0")/common.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
bin=$(darkroom_binary)

mkdir -p "$work/in"
photos=(  # real cameras and phones, 8 to 16 MP
  "exif-samples/jpg/hdr/iphone_hdr_NO.jpg" "exif-samples/jpg/mobile/jolla.jpg" "immich-test-assets/albums/text/japanese-shop.jpg"
  "metadata-extractor-images/jpg/Canon EOS 5D.jpg" "metadata-extractor-images/jpg/Canon PowerShot G11.jpg"
  "metadata-extractor-images/jpg/Kodak PIXPRO FZ201.jpg" "metadata-extractor-images/jpg/Nexus 4.jpg"
  "immich-test-assets/metadata/gps-position/empty_gps.jpg"
)
i=0; for p in "${photos[@]}"; do i=$((i + 1)); [ -f "$CORPUS/$p" ] && cp "$CORPUS/$p" "$work/in/photo-$i.jpg"; done
make_photos "$work/in" 2 3000x2000
qualities=(40 45 50 55 60 65 70); presets=(${HEIC_PRESETS:-ultrafast veryfast fast medium slow})
[ $quick = 1 ] && { qualities=(50 60 70); presets=(medium); }
[ -n "${HEIC_QUALITIES:-}" ] && qualities=($HEIC_QUALITIES)

# References: the pixels heic-encode receives (2048 px, upright), and a JPEG Q80 of them.
jpeg_bytes=0; jpeg_ssim=0; n=0
for f in "$work"/in/*; do
  b=$(basename "$f"); vips thumbnail "$f" "$work/$b.ref.png" 2048 --size down
  vips jpegsave "$work/$b.ref.png" "$work/$b.q80.jpg" --Q 80 --optimize-coding
  jpeg_bytes=$((jpeg_bytes + $(stat -c %s "$work/$b.q80.jpg")))
  jpeg_ssim=$(echo "$jpeg_ssim + $(ssim "$work/$b.ref.png" "$work/$b.q80.jpg")" | bc -l); n=$((n + 1))
done
printf "photos: %d, JPEG Q80: %d bytes in all, SSIM %.4f\n" "$n" "$jpeg_bytes" "$(echo "$jpeg_ssim / $n" | bc -l)"
printf "%-8s %-4s %8s %10s %8s\n" preset Q SSIM "vs JPEG80" seconds
for preset in "${presets[@]}"; do
  for q in "${qualities[@]}"; do
    lib="$work/lib-$preset-$q"
    printf 'steps:\n  - exif-date\n  - resize: { long-edge: 2048 }\n  - heic-encode: { quality: %s, preset: %s, output: "{name}.heic" }\n' "$q" "$preset" > "$work/p.yaml"
    t=$(seconds "$bin" run "$work/p.yaml" --input "$work/in" --library "$lib" --jobs 1)
    bytes=0; total=0; n=0
    for f in "$work"/in/*; do
      b=$(basename "$f"); stem="${b%.*}"
      vips copy "$lib/$stem.heic" "$work/dec.png"
      s=$(ssim "$work/$b.ref.png" "$work/dec.png"); total=$(echo "$total + $s" | bc -l); n=$((n + 1))
      bytes=$((bytes + $(stat -c %s "$lib/$stem.heic")))
    done
    printf "%-8s %-4s %8.4f %9.2fx %8.1f\n" "$preset" "$q" "$(echo "$total / $n" | bc -l)" "$(echo "$bytes / $jpeg_bytes" | bc -l)" "$t"
  done
done
