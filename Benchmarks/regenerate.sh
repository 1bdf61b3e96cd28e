#!/usr/bin/env bash
# Regenerating 200 px thumbnails of a library of HEICs: Darkroom over its own library (each HEIC
# carries a 320 px thumbnail item, read instead of the 2048 px image) vs vipsthumbnail over a library
# of the same photos made by the vips CLI (2048 px HEICs without a thumbnail item), on the same
# photos in one run.
#
#   Benchmarks/regenerate.sh [--quick]
#
# Inputs: the corpus's real camera JPEGs over 5 MP (corpus_jpegs, 22) plus N generated 12 MP photos
# (full: 8 pictures copied to 58 files with their own dates, 80 photos in all; quick: 2 generated + 6
# corpus). Untimed set-up: Darkroom imports them (pipelines/import-camera-roll.yaml: 2048 px HEIC
# with the item, 200 px thumbnail); the vips CLI makes the same 2048 px HEICs
# (`vipsthumbnail IN -s 2048 -o OUT.heic[Q=50,bitdepth=8]`, as in import.sh).
# Timed, ROUNDS times interleaved (full 3, quick 1), the fastest counting:
#   darkroom  darkroom run REGEN --input LIB/Photos --library LIB --force, REGEN being the
#             regenerate-thumbnails pipeline at one size: thumbnail { size: 200, quality: 80,
#             output: "Regenerated/{dir}/{name}.jpg" } (through the catalog each HEIC is its photo:
#             same id); --jobs $(nproc); --force redoes every thumbnail
#   vips-1    one vipsthumbnail process over the vips library's HEICs (-s 200, Q=80, strip), as a
#             user runs it; vips-P (xargs -P $(nproc), 4 files a process) for information
#   darkroom-main  the same darkroom run with the items skipped (a library imported with
#             heic-encode { thumbnail: off }): what decoding the 2048 px image costs Darkroom
# Checked: every thumbnail's size against vipsthumbnail's of the original JPEG (same orientation),
# and the mean absolute pixel difference (0-255) of Darkroom's regenerated thumbnails against those.
# Target: darkroom >= 5x vips-1 (wall), with identical-looking results.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then k=2 n=2 ncorp=6 rounds=${ROUNDS:-1}; else k=8 n=58 ncorp=1000 rounds=${ROUNDS:-3}; fi
header "regenerate$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch regenerate

in="$SCRATCH/in"
camera_roll "$in" regen "$n" "$k"
c=$(corpus_jpegs "$in" "$ncorp")
files=("$in"/*.jpg); count=${#files[@]}
echo "inputs: $n generated 4000x3000 JPEGs + $c corpus JPEGs = $count photos"

# Set-up (untimed): the two libraries.
pipeline="$ROOT/pipelines/import-camera-roll.yaml"
"$bin" run "$pipeline" --input "$in" --library "$SCRATCH/dr" --jobs "$JOBS" > "$SCRATCH/import.log" 2>&1 || { tail "$SCRATCH/import.log"; exit 1; }
sed 's/^\(      output: "Photos.*\.heic"\)$/\1\n      thumbnail: off/' "$pipeline" > "$SCRATCH/import-noitem.yaml"
grep -q 'thumbnail: off' "$SCRATCH/import-noitem.yaml" || { echo "could not make the thumbnail: off pipeline" >&2; exit 1; }
"$bin" run "$SCRATCH/import-noitem.yaml" --input "$in" --library "$SCRATCH/dr-main" --jobs "$JOBS" > "$SCRATCH/import-main.log" 2>&1 \
  || { tail "$SCRATCH/import-main.log"; exit 1; }
mkdir -p "$SCRATCH/vips"
printf '%s\0' "${files[@]}" | xargs -0 -P "$JOBS" -n 4 vipsthumbnail -s 2048 -o "$SCRATCH/vips/%s.heic[Q=50,bitdepth=8]"
heics=("$SCRATCH"/vips/*.heic)
dr_heics=$(find "$SCRATCH/dr/Photos" -name '*.heic' | wc -l)
echo "libraries: darkroom $dr_heics HEICs ($(bytes_of $(find "$SCRATCH/dr/Photos" -name '*.heic')) bytes, items $(heif-info "$(find "$SCRATCH/dr/Photos" -name '*.heic' | head -1)" | grep -m1 thumbnail | tr -s ' ')), vips CLI ${#heics[@]} HEICs ($(bytes_of "${heics[@]}") bytes)"
# The reference look: vipsthumbnail of each original JPEG.
mkdir -p "$SCRATCH/ref"; vipsthumbnail -s 200 -o "$SCRATCH/ref/%s.png" "${files[@]}"

cat > "$SCRATCH/regen.yaml" <<'YAML'
inputs:
  include: ["**/*.heic"]
steps:
  - thumbnail: { size: 200, quality: 80, output: "Regenerated/{dir}/{name}.jpg" }
YAML

declare -A best rssk
keep() { if [ -z "${best[$1]:-}" ] || le "$2" "${best[$1]}"; then best[$1]=$2; rssk[$1]=$3; fi; }
for r in $(seq 1 "$rounds"); do
  for t in darkroom vips_1 vips_P darkroom_main; do
    o="$SCRATCH/out-$t"; rm -rf "$o"; mkdir -p "$o"
    case $t in
      darkroom) measure $t "$bin" run "$SCRATCH/regen.yaml" --input "$SCRATCH/dr/Photos" --library "$SCRATCH/dr" --force --jobs "$JOBS" ;;
      darkroom_main) measure $t "$bin" run "$SCRATCH/regen.yaml" --input "$SCRATCH/dr-main/Photos" --library "$SCRATCH/dr-main" --force --jobs "$JOBS" ;;
      vips_1) measure $t vipsthumbnail -s 200 -o "$o/%s.jpg[Q=80,strip]" "${heics[@]}" ;;
      vips_P) measure $t env VIPS_CONCURRENCY=1 xargs -0 -P "$JOBS" -n 4 vipsthumbnail -s 200 -o "$o/%s.jpg[Q=80,strip]" \
                < <(printf '%s\0' "${heics[@]}") ;;
    esac
    w=${t}_wall; rss=${t}_rss; rc=${t}_rc
    [ "${!rc}" = 0 ] || echo "  ($t exited ${!rc}: see $SCRATCH/$t.log)"
    echo "  round $r $t: ${!w} s, peak RSS ${!rss} KB$( [[ $t == darkroom* ]] && echo ", $(grep -m1 'found:' "$SCRATCH/$t.log")")"
    keep "$t" "${!w}" "${!rss}"
  done
done

# Look: Darkroom's regenerated thumbnails against vipsthumbnail's of the originals, matched through
# the catalog (original path -> HEIC id).
sizes_ok=0; sizes_bad=0; diffs=()
while IFS=$'\t' read -r orig heic; do
  stem=$(basename "${orig%.*}"); id=$(basename "${heic%.heic}")
  out=$(find "$SCRATCH/dr/Regenerated" -name "$id.jpg" | head -1); ref="$SCRATCH/ref/$stem.png"
  [ -n "$out" ] && [ -f "$ref" ] || { sizes_bad=$((sizes_bad + 1)); echo "  missing: $orig"; continue; }
  a="$(vipsheader -f width "$out")x$(vipsheader -f height "$out")"; b="$(vipsheader -f width "$ref")x$(vipsheader -f height "$ref")"
  if [ "$a" = "$b" ]; then sizes_ok=$((sizes_ok + 1))
    diffs+=("$(vips subtract "$out" "$ref" "$SCRATCH/d.v" && vips abs "$SCRATCH/d.v" "$SCRATCH/a.v" && vips avg "$SCRATCH/a.v")")
  else sizes_bad=$((sizes_bad + 1)); echo "  size differs: $orig: darkroom $a, reference $b"; fi
done < <(heic_map "$SCRATCH/dr")
diff_mean=$(printf '%s\n' "${diffs[@]}" | awk '{s+=$1; if ($1>m) m=$1} END {printf "%.2f (worst %.2f)", s/NR, m}')
echo "look: $sizes_ok thumbnails the size and orientation of vipsthumbnail's of the original ($sizes_bad not);" \
  "mean absolute pixel difference $diff_mean of 255"

echo
printf '%-16s %8s %12s %10s\n' run "wall s" "images/s" "peak KB"
for t in darkroom darkroom_main vips_1 vips_P; do printf '%-16s %8s %12.1f %10s\n' "$t" "${best[$t]}" "$(calc "$count / ${best[$t]}")" "${rssk[$t]}"; done
ratio=$(calc "${best[vips_1]} / ${best[darkroom]}")
echo "darkroom / vipsthumbnail (one process): ${ratio}x; / vips-P: $(calc "${best[vips_P]} / ${best[darkroom]}")x;" \
  "the item against the main image inside Darkroom: $(calc "${best[darkroom_main]} / ${best[darkroom]}")x"
summary "regenerate: darkroom / vipsthumbnail" "${ratio}x" ">=5x" "$(met ge "$ratio" 5)"
summary "regenerate: look (mean px diff)" "$diff_mean" "small" "-"
