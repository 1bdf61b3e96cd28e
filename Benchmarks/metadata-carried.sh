#!/usr/bin/env bash
# Issue 26: is what the user made carried into the library? Imports every corpus photo (of the formats
# pipelines/import-camera-roll.yaml takes) that carries a rating, keywords, a title, a description, a
# creator, people or a date, then counts, per field, the HEICs in which exiftool reads it back (the
# photo's own XMP, or its IPTC-IIM where it has no XMP for it) and the HEICs that carry the capture
# date the catalog holds (EXIF DateTimeOriginal, OffsetTimeOriginal, SubSecTimeOriginal; XMP
# exif:DateTimeOriginal, xmp:CreateDate, photoshop:DateCreated). Metadata does not depend on x265's
# preset, so the pipeline runs at ultrafast. Prints the table (metadata-carried.py) and the misses.
#
#   Benchmarks/metadata-carried.sh              # builds release (or DARKROOM_BIN=...)
#   KEEP=1 Benchmarks/metadata-carried.sh       # keeps the roll and the library under bench-out/tmp
source "$(dirname "$0")/bench-lib.sh"
[ -d "$CORPUS" ] || { echo "needs the corpus: set DARKROOM_CORPUS" >&2; exit 1; }
echo "$(date -u '+%Y-%m-%d %H:%M UTC') $(uname -m) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
BIN=$(bench_bin)
bench_scratch metadata-carried

# The corpus's photos of the import's formats, with what exiftool reads in them.
ext_args=(); for ext in jpg jpeg jpe heic heif hif png webp avif; do ext_args+=(-ext "$ext"); done
exiftool -q -q -r -j -a -G1 -n "${ext_args[@]}" -XMP:Rating -XMP:Subject -XMP:Title -XMP:Description -XMP:Creator \
  -XMP:PersonInImage -XMP:RegionName -XMP:RegionPersonDisplayName -XMP:TagsList -IPTC:Keywords -IPTC:ObjectName \
  -IPTC:Caption-Abstract -IPTC:By-line -EXIF:DateTimeOriginal -XMP:DateTimeOriginal -XMP:CreateDate -XMP:DateCreated \
  "$CORPUS" > "$SCRATCH/sources.json" || true
# Copied (the import follows no symbolic links), under their corpus paths so names stay apart.
python3 "$(dirname "$0")/metadata-carried.py" select "$SCRATCH/sources.json" "$CORPUS" > "$SCRATCH/selected.txt"
mkdir -p "$SCRATCH/roll"
while IFS= read -r path; do
  mkdir -p "$SCRATCH/roll/$(dirname "$path")"; cp "$CORPUS/$path" "$SCRATCH/roll/$path"
done < "$SCRATCH/selected.txt"
echo "$(wc -l < "$SCRATCH/selected.txt") corpus photos carry a rating, keywords, a title, a description, a creator, people or a date"

sed 's/preset: medium/preset: ultrafast/' "$ROOT/pipelines/import-camera-roll.yaml" > "$SCRATCH/import.yaml"
measure import "$BIN" run "$SCRATCH/import.yaml" --input "$SCRATCH/roll" --library "$SCRATCH/library" --time-zone UTC
grep -E "found:|failed:" "$SCRATCH/import.log" | head -20

# What exiftool reads in the HEICs the import wrote, then the table.
find "$SCRATCH/library/Photos" -name '*.heic' > "$SCRATCH/heics.txt"
exiftool -q -q -j -a -G1 -n -@ "$SCRATCH/heics.txt" -XMP:Rating -XMP:Subject -XMP:Title -XMP:Description -XMP:Creator \
  -XMP:PersonInImage -XMP:RegionName -XMP:RegionPersonDisplayName -XMP:TagsList -EXIF:DateTimeOriginal -EXIF:OffsetTimeOriginal \
  -EXIF:SubSecTimeOriginal -XMP:DateTimeOriginal -XMP:CreateDate -XMP:DateCreated > "$SCRATCH/heics.json" || true
python3 "$(dirname "$0")/metadata-carried.py" table "$SCRATCH/sources.json" "$CORPUS" "$SCRATCH/roll" "$SCRATCH/library" "$SCRATCH/heics.json"
