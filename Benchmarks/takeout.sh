#!/usr/bin/env bash
# A Google Takeout export imported: every photo in the month its JSON or EXIF says, none on the export
# day; time and peak memory, and the cost of dating alone against exiftool reading the same metadata.
#
#   Benchmarks/takeout.sh [--quick]
#
# Input (made once, kept in bench-out/inputs): N photos (full: 2000, quick: 200), copies of 8 generated
# 640x480 JPEGs made unique by their EXIF, with JSON sidecars under every naming Takeout has used, EXIF
# dates that agree, disagree or are missing, geoData in Tokyo, New York and Paris or none, an album
# folder of duplicates, every mtime the export day (Benchmarks/make-takeout-tree.py, which writes the
# month each photo must land in).
#
#   import    darkroom run pipelines/import-camera-roll.yaml --time-zone UTC (HEIC, thumbnails)
#   dating    darkroom run with exif-date alone (sidecars matched and read, zones looked up, dates recorded)
#   exiftool  exiftool -r -j of the dates and places of every photo and JSON (reading, no decision)
# Checks: photos filed in another month than expected, and photos filed in 2024/06 (the export day): both 0.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then n=200; else n=2000; fi
header "takeout$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch takeout

tree="$BENCH_OUT/inputs/takeout-$n"
if [ ! -f "$tree/expected.tsv" ]; then
  rm -rf "$tree"
  base=$(base_photos 640x480 8)
  python3 "$ROOT/Benchmarks/make-takeout-tree.py" "$tree" "$n" "$base"/IMG_000{1..8}.jpg
fi
in="$tree/Takeout"
echo "inputs: $(find "$in" -name '*.jpg' | wc -l) photos, $(find "$in" -name '*.json' | wc -l) JSON files, $(du -sk "$in" | cut -f1) KiB"

printf 'steps:\n  - exif-date\n' > "$SCRATCH/dating.yaml"
measure dating "$bin" run "$SCRATCH/dating.yaml" --input "$in" --library "$SCRATCH/dating-lib" --time-zone UTC --jobs "$JOBS"
echo "dating: $(grep -m1 'found:' "$SCRATCH/dating.log")"
measure exiftool exiftool -r -q -j -n -DateTimeOriginal -OffsetTimeOriginal -GPSLatitude -GPSLongitude \
  -PhotoTakenTimeTimestamp -GeoDataLatitude -GeoDataLongitude "$in"
measure import "$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$in" --library "$SCRATCH/lib" --time-zone UTC --jobs "$JOBS"
echo "import: $(grep -m1 'found:' "$SCRATCH/import.log")"

# Where each photo landed (by file name: an album copy may be the one imported), against where it must.
declare -A month
while IFS=$'\t' read -r original local; do month[$(basename "$original")]=${local:0:4}/${local:5:2}; done < <(
  sqlite3 -separator $'\t' "$SCRATCH/lib/.darkroom/catalog.sqlite" "select original_path, capture_local from assets")
wrong=0 missing=0
while IFS=$'\t' read -r path want; do
  got=${month[$(basename "$path")]:-}
  if [ -z "$got" ]; then missing=$((missing + 1)); elif [ "$got" != "$want" ]; then wrong=$((wrong + 1)); echo "  wrong: $path in $got, not $want"; fi
done < "$tree/expected.tsv"
export_day=$(find "$SCRATCH/lib/Photos" -path '*/2024/06/*' -name '*.heic' | wc -l)
photos=$(wc -l < "$tree/expected.tsv")
echo "filed: $((photos - wrong - missing)) of $photos in the expected month, $wrong elsewhere, $missing not imported, $export_day on the export day"
echo "import: ${import_wall} s, $(calc "$import_wall * 1000 / $photos") ms a photo, peak RSS $((import_rss / 1024)) MB"
echo "dating: ${dating_wall} s, $(calc "$dating_wall * 1000 / $photos") ms a photo, peak RSS $((dating_rss / 1024)) MB; exiftool reading the same: ${exiftool_wall} s, peak RSS $((exiftool_rss / 1024)) MB"
summary "takeout: dating vs exiftool reading" "$(calc "$exiftool_wall / $dating_wall")x" "-" "-"
summary "takeout: photos in the wrong month" "$((wrong + missing + export_day)) of $photos" "0" "$(met [ $((wrong + missing + export_day)) = 0 ])"
