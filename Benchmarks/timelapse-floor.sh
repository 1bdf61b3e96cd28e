#!/usr/bin/env bash
# What the unaligned time-lapse's two native parts cost on their own, against Darkroom's whole
# time-lapse and the ffmpeg CLI as people run it (issue 23's 3x at equal quality): 40 photos of 12 MP
# (Benchmarks/timelapse-photos.sh) to a 1080p H.264 MP4 at 0.3 s a photo, preset medium.
#
# - x264 alone: Darkroom's own frames (a lossless run of the same time-lapse, `crf: 0`, decoded to raw
#   YUV once) encoded one frame a photo with Darkroom's settings (no B-frames, lookahead 10, forced IDR)
#   at CRF (18: the CRF at which Darkroom's frames reach the CLI's SSIM at CRF 20, timelapse-quality.sh);
# - the decode at frame size alone: libvips' own thumbnailer over the photos, in one process
#   (`vipsthumbnail -s` the picture area: shrink-on-load, Lanczos);
# - the JPEG decode alone, at the size libjpeg's shrink-on-load gives (1/2, 1/4 or 1/8 of the photo,
#   the smallest that still covers the frame), with nothing else done to the pixels: `vips avg` of each
#   photo, less the same number of `vips avg` runs on an 8x8 image (the CLI's start-up);
# - Darkroom's whole time-lapse at CRF, and the ffmpeg CLI (`-framerate 10/3 ... -r 30`, CRF 20).
# Rounds are interleaved (ROUNDS, 2); medians of wall and CPU time. The ratio printed is the best any
# pipeline made of those two parts could reach against the CLI on this machine: the CLI's wall time over
# the two parts' CPU time spread over every core (or x264's own wall time, if that is longer); and the
# same with the decode alone in the thumbnailer's place: what no pipeline that encodes these frames at
# this CRF and preset can pass, however it decodes and scales.
#   Benchmarks/timelapse-floor.sh
# Environment: COUNT (40), PRESET (medium), CRF (18), ROUNDS, DARKROOM_BIN, TIMELAPSE_WORK (as timelapse.sh).
source "$(dirname "$0")/bench-lib.sh"
n=${COUNT:-40} preset=${PRESET:-medium} crf=${CRF:-18} rounds=${ROUNDS:-2}
header "timelapse floor ($n photos, preset $preset, CRF $crf)"
bin=$(bench_bin)
bench_scratch timelapse-floor
timelapse_photos "$n"

pipeline() {
  cat > "$SCRATCH/crf-$1.yaml" <<YAML
steps:
  - exif-date: { fallback-to-file-time: false }
  - timelapse: { seconds-per-frame: 0.3, frame-rate: 30, size: 1920x1080, fit: contain, crf: $1, preset: $preset, output: timelapse.mp4 }
YAML
}
pipeline 0; pipeline "$crf"
# Darkroom's own frames, as its encoder is handed them: a lossless run, decoded once to raw YUV.
"$bin" run "$SCRATCH/crf-0.yaml" --input "$photos" --library "$SCRATCH/lib-lossless" > "$SCRATCH/lossless.log" 2>&1
ffmpeg -y -v error -i "$SCRATCH/lib-lossless/timelapse.mp4" -fps_mode passthrough -c:v rawvideo -f nut "$SCRATCH/frames.nut"
cat "$SCRATCH/frames.nut" > /dev/null
fit="scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,format=yuv420p"

# The shrink-on-load factor a decoder for the picture area can use (libjpeg's 1/2, 1/4, 1/8).
first=$(ls "$photos"/*.jpg | head -1)
shrink=1
for factor in 2 4 8; do
  [ $(( $(vipsheader -f width "$first") / factor )) -ge "$pw" ] && [ $(( $(vipsheader -f height "$first") / factor )) -ge "$ph" ] && shrink=$factor
done
vips black "$SCRATCH/tiny.v" 8 8

runs=(ffmpeg darkroom x264 vipsthumbnail jpegdecode vipsstart)
declare -A walls cpus
for round in $(seq 1 "$rounds"); do
  for run in "${runs[@]}"; do
    case $run in
      ffmpeg) measure ffmpeg ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" -vf "$fit" -r 30 \
                -c:v libx264 -preset "$preset" -crf 20 -movflags +faststart "$SCRATCH/ffmpeg.mp4" ;;
      darkroom) rm -rf "$SCRATCH/lib"; measure darkroom "$bin" run "$SCRATCH/crf-$crf.yaml" --input "$photos" --library "$SCRATCH/lib" ;;
      x264) measure x264 ffmpeg -y -v error -i "$SCRATCH/frames.nut" -vf "settb=1/30,setpts=N*9" -fps_mode passthrough -enc_time_base 1/30 \
              -c:v libx264 -preset "$preset" -crf "$crf" -bf 0 -x264-params rc-lookahead=10:forced-idr=1 "$SCRATCH/x264.mp4" ;;
      vipsthumbnail) rm -rf "$SCRATCH/thumbs"; mkdir -p "$SCRATCH/thumbs"
                     measure vipsthumbnail vipsthumbnail -s "${pw}x${ph}" -o "$SCRATCH/thumbs/%s.v" "$photos"/*.jpg ;;
      jpegdecode) measure jpegdecode sh -c 'for f in "$1"/*.jpg; do vips avg "$f[shrink=$2]" > /dev/null; done' _ "$photos" "$shrink" ;;
      vipsstart) measure vipsstart sh -c 'for f in "$1"/*.jpg; do vips avg "$2" > /dev/null; done' _ "$photos" "$SCRATCH/tiny.v" ;;
    esac
    w=${run}_wall c=${run}_cpu
    walls[$run]+=" ${!w}" cpus[$run]+=" ${!c}"
  done
done

printf '\n%-30s %8s %8s   %s\n' "" "wall s" "CPU s" "(each round's wall / CPU)"
for run in "${runs[@]}"; do
  printf '%-30s %8.2f %8.2f   (%s /%s)\n' "$run" "$(median ${walls[$run]})" "$(median ${cpus[$run]})" "${walls[$run]}" "${cpus[$run]}"
done
cores=$(nproc)
parts_cpu=$(calc "$(median ${cpus[x264]}) + $(median ${cpus[vipsthumbnail]})")
floor_wall=$(calc "$parts_cpu / $cores")
le "$floor_wall" "$(median ${walls[x264]})" && floor_wall=$(median ${walls[x264]})
echo "x264 alone + the decode alone: $parts_cpu s CPU (Darkroom's whole time-lapse: $(median ${cpus[darkroom]}) s);" \
  "on $cores cores at least $floor_wall s wall against the CLI's $(median ${walls[ffmpeg]}) s"
decode_cpu=$(calc "$(median ${cpus[jpegdecode]}) - $(median ${cpus[vipsstart]})")
least_cpu=$(calc "$(median ${cpus[x264]}) + $decode_cpu")
least_wall=$(calc "$least_cpu / $cores")
le "$least_wall" "$(median ${walls[x264]})" && least_wall=$(median ${walls[x264]})
echo "x264 alone + the JPEG decode alone at 1/$shrink (no scaling, no colour, no muxing): $least_cpu s CPU;" \
  "on $cores cores at least $least_wall s wall"
summary "timelapse: best possible vs ffmpeg -r 30" "$(calc "$(median ${walls[ffmpeg]}) / $floor_wall")x" "(3x asked)" \
  "Darkroom $(calc "$(median ${walls[ffmpeg]}) / $(median ${walls[darkroom]})")x"
summary "timelapse: x264 + decode alone vs ffmpeg" "$(calc "$(median ${walls[ffmpeg]}) / $least_wall")x" "(3x asked)" \
  "no pipeline passes it"
