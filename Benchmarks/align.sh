#!/usr/bin/env bash
# Aligned time-lapses (issue 23): residual background motion of a hand-held set, raw, after ffmpeg's
# two-pass vidstab, and after Darkroom's scene alignment, on the same photos in one run; and the cost of
# alignment per photo.
#
#   Benchmarks/align.sh [--quick]        (ALIGN_BIN: an align-benchmark already built in release)
#   Benchmarks/align.sh --cost           only the last section, align none vs scene (DARKROOM_BIN, ROUNDS)
#
# The set (Benchmarks/make-handheld-set.py, kept in bench-out/inputs): N photos of 2048x1536 (full: 20,
# quick: 12) made from a real textured photo of the corpus (exif-samples/jpg/hdr/iphone_hdr_NO.jpg:
# wisteria, a post, foliage), each shifted up to 6 %, turned up to 5 degrees, scaled 0.92-1.08,
# brightness 0.8-1.2, with a textured subject that grows from photo to photo.
# (a) raw: each photo scaled to cover 1920x1080; (b) vidstab: those frames as a lossless video at one
# photo a frame, `vidstabdetect` (shakiness 10, accuracy 15) then `vidstabtransform` (bicubic), in four
# settings: a static camera (smoothing 0) with optzoom 1 and without zoom, tripod mode (frame 1 as
# reference) and the default smoothing (10), all with crop=black (the default, keep, fills what a frame
# leaves empty with the frame before, which would measure as still); the best is compared; (c) Darkroom: the not-shipped align-benchmark (release) aligns
# the photos (working copies of long edge 1024), crops what every photo covers and writes 1920x1080
# frames.
# Residual motion is the median over consecutive pairs of the median background displacement at
# 1920x1080 (Benchmarks/measure-motion.py): from the true transforms for the raw set and Darkroom (known
# points), and image-based (tile phase correlation, the subject's disc left out) for vidstab and Darkroom.
# Targets (issue 23): at most 1 px, and at most half of what two-pass vidstab leaves.
# Cost: align-benchmark's CPU milliseconds per photo for the alignment at working size (decoding
# excluded) and for the grey working copy, against an unaligned time-lapse's CPU time per photo.
# Align none vs scene: the whole time-lapse (darkroom run, release) of 40 hand-held photos of 12 MP
# (4000x3000, made as above, dated a day apart) to 1080p at CRF 20, preset medium, without alignment
# (fit contain, the default; and fit cover, the frame filled as an aligned one is) and with align: scene,
# in interleaved rounds (ROUNDS, default 3: none, none cover, scene, none, ...) on a fresh library each
# time; the medians of wall and CPU time and the ratios (target: scene at most 1.15x none).
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1

# Align none vs scene (see above): prints each run's medians and the ratios.
none_vs_scene() {
  local set="$BENCH_OUT/inputs/handheld-12mp-40" rounds=${ROUNDS:-3} bin run round name
  echo; echo "-- align none vs scene: 40 hand-held photos of 12 MP ($set), 1920x1080, crf 20, preset medium, $rounds rounds"
  if [ ! -f "$set/done" ]; then
    python3 "$ROOT/Benchmarks/make-handheld-set.py" "$base" "$set" --count 40 --long-edge 4000 --seed 23
    for photo in "$set"/photo-*.jpg; do
      name=$(basename "$photo" .jpg); mv "$photo" "$set/$(date -u -d "2024-01-01 + $((10#${name#photo-} - 1)) days" '+%Y-%m-%d_080000').jpg"
    done
    exiftool -q -overwrite_original '-DateTimeOriginal<filename' "$set" && touch "$set/done"
  fi
  bin=$(bench_bin)
  [ -n "${SCRATCH:-}" ] || bench_scratch align-cost
  for run in none none-cover scene; do
    local align=${run%-cover} fit=contain; [ "$run" != none ] && fit=cover
    cat > "$SCRATCH/$run.yaml" <<YAML
inputs: { include: ["**/*.jpg"] }
steps:
  - exif-date: { fallback-to-file-time: false }
  - timelapse: { seconds-per-frame: 0.3, size: 1920x1080, crf: 20, preset: medium, fit: $fit, align: $align, output: $run.mp4 }
YAML
  done
  cat "$set"/*.jpg > /dev/null   # every run reads them from the page cache
  declare -A walls cpus
  for round in $(seq 1 "$rounds"); do
    for run in none none-cover scene; do
      rm -rf "$SCRATCH/lib"
      measure run "$bin" run "$SCRATCH/$run.yaml" --input "$set" --library "$SCRATCH/lib" -v
      [ "$run_rc" = 0 ] || exit 1
      walls[$run]+=" $run_wall" cpus[$run]+=" $run_cpu"
    done
  done
  grep -o "align scene:.*" "$SCRATCH/run.log" || true
  printf '%-12s %8s %8s   %s\n' "" "wall s" "CPU s" "(each round's wall / CPU)"
  for run in none none-cover scene; do
    printf '%-12s %8s %8s   %s /%s\n' "$run" "$(median ${walls[$run]})" "$(median ${cpus[$run]})" "${walls[$run]}" "${cpus[$run]}"
  done
  local wall cpu wall_cover cpu_cover
  wall=$(calc "$(median ${walls[scene]}) / $(median ${walls[none]})") cpu=$(calc "$(median ${cpus[scene]}) / $(median ${cpus[none]})")
  wall_cover=$(calc "$(median ${walls[scene]}) / $(median ${walls[none-cover]})")
  cpu_cover=$(calc "$(median ${cpus[scene]}) / $(median ${cpus[none-cover]})")
  echo "align scene costs ${wall}x the wall time and ${cpu}x the CPU time of align none (fit cover: ${wall_cover}x, ${cpu_cover}x)"
  summary "align: scene / none, wall" "${wall}x" "<= 1.15x" "$(met le "$wall" 1.15)"
  summary "align: scene / none, CPU" "${cpu}x" "<= 1.15x" "$(met le "$cpu" 1.15)"
}
count=$([ $quick = 1 ] && echo 12 || echo 20)
header "align$([ $quick = 1 ] && echo ' (quick)')"
base="$CORPUS/exif-samples/jpg/hdr/iphone_hdr_NO.jpg"
[ -f "$base" ] || { echo "needs the corpus photo $base (set DARKROOM_CORPUS)" >&2; exit 1; }
if [ "${1:-}" = "--cost" ]; then none_vs_scene; exit 0; fi
ffmpeg -hide_banner -filters 2>/dev/null | grep vidstabdetect >/dev/null || { echo "this ffmpeg has no vidstab" >&2; exit 1; }

set="$BENCH_OUT/inputs/handheld-$count"
[ -f "$set/truth.json" ] || python3 "$ROOT/Benchmarks/make-handheld-set.py" "$base" "$set" --count "$count" --long-edge 2048 --seed 23
if [ -n "${ALIGN_BIN:-}" ]; then bin=$ALIGN_BIN; else
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --product align-benchmark >&2); bin="$ROOT/.build/release/align-benchmark"
fi
measure_py="$ROOT/Benchmarks/measure-motion.py"
bench_scratch align
cd "$SCRATCH"
field() { echo "$1" | awk -v k="$2:" '$1 == k {print $2; exit}'; }

# (a) The raw set, each photo covering the frame.
mkdir raw
i=0; for photo in "$set"/photo-*.jpg; do
  i=$((i + 1)); vips thumbnail "$photo" "$(printf 'raw/frame-%04d.png' $i)" 1920 --height 1080 --crop centre
done
raw=$(python3 "$measure_py" truth "$set/truth.json")
echo "raw (known points): $(field "$raw" median_px) px median, largest pair $(field "$raw" max_pair_px) px"

# (b) Two-pass vidstab on a lossless video of the raw frames, one photo a frame.
ffmpeg -y -v error -framerate 5 -i raw/frame-%04d.png -c:v ffv1 -pix_fmt yuv420p raw.mkv
subject_raw=$(python3 "$measure_py" subject "$set/truth.json")
best_vidstab=""
for setting in "static camera|smoothing=0:optzoom=1|" "static camera, no zoom|smoothing=0:optzoom=0|" \
               "tripod|smoothing=0:optzoom=1:tripod=1|tripod=1" "defaults|smoothing=10:optzoom=1|"; do
  IFS='|' read -r label transform detect_extra <<< "$setting"
  ffmpeg -y -v error -i raw.mkv -vf "vidstabdetect=shakiness=10:accuracy=15:result=$SCRATCH/transforms.trf${detect_extra:+:$detect_extra}" -f null -
  ffmpeg -y -v error -i raw.mkv -vf "vidstabtransform=input=$SCRATCH/transforms.trf:$transform:crop=black:interpol=bicubic,format=gray" \
    -f rawvideo vidstab.gray
  result=$(python3 "$measure_py" frames vidstab.gray --exclude "$subject_raw")
  echo "vidstab, $label (image-based): $(field "$result" median_px) px median, largest pair $(field "$result" max_pair_px) px"
  figure=$(field "$result" median_px)
  if [ -z "$best_vidstab" ] || le "$figure" "$best_vidstab"; then best_vidstab=$figure; best_label=$label; fi
  [ "$label" = "static camera" ] && mkdir -p vidstab && ffmpeg -y -v error -i raw.mkv \
    -vf "vidstabtransform=input=$SCRATCH/transforms.trf:$transform:crop=black:interpol=bicubic" vidstab/frame-%04d.png
done

# (c) Darkroom's scene alignment.
measure ours "$bin" "$set" ours --frame 1920x1080 --working 1024
cat ours.log
ffmpeg -y -v error -i ours/frame-%04d.png -pix_fmt gray -f rawvideo ours.gray
ours_known=$(python3 "$measure_py" truth "$set/truth.json" ours/transforms.tsv)
ours_image=$(python3 "$measure_py" frames ours.gray --exclude "$(python3 "$measure_py" subject "$set/truth.json" ours/transforms.tsv)")
echo "Darkroom (known points): $(field "$ours_known" median_px) px median, largest pair $(field "$ours_known" max_pair_px) px"
echo "Darkroom (image-based): $(field "$ours_image" median_px) px median, largest pair $(field "$ours_image" max_pair_px) px"

# Side by side for a look: first, middle and last photo; raw, vidstab (static camera), Darkroom.
middle=$(( (count + 1) / 2 ))
tiles=()
for kind in raw vidstab ours; do
  for n in 1 "$middle" "$count"; do
    tiles+=("$(printf '%s/frame-%04d.png' "$kind" "$n")")
  done
done
look="$BENCH_OUT/align-side-by-side.png"
vips arrayjoin "${tiles[*]}" look.v --across 3 --shim 8 && vips resize look.v "$look" 0.25
echo "side by side (rows: raw, vidstab static camera, Darkroom): $look"

ours_figure=$(field "$ours_image" median_px)
worst=$(field "$ours_known" median_px); le "$ours_figure" "$worst" || worst=$ours_figure
align_cpu=$(field "$(cat ours.log)" align_cpu_ms_median)
grey_cpu=$(field "$(cat ours.log)" grey_copy_cpu_ms_median)
echo "cost per photo: alignment ${align_cpu} ms CPU, grey working copy ${grey_cpu} ms CPU" \
     "(an unaligned 40-photo time-lapse of 12 MP photos took 11.6 CPU s, 290 ms a photo: Benchmarks/README, 2026-11-25)"
summary "align: raw background motion (px)" "$(field "$raw" median_px)" "-" "-"
summary "align: vidstab best ($best_label, px)" "$best_vidstab" "-" "-"
summary "align: Darkroom background motion (px)" "$worst" "<= 1" "$(met le "$worst" 1)"
summary "align: Darkroom / vidstab" "$(calc "$worst / $best_vidstab")x" "<= 0.5x" "$(met le "$(calc "$worst / $best_vidstab")" 0.5)"
summary "align: cost per photo (CPU ms)" "$(calc "$align_cpu + $grey_cpu")" "<= 43 (15%)" "$(met le "$(calc "$align_cpu + $grey_cpu")" 43.5)"

none_vs_scene
