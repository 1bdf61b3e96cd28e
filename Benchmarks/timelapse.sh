#!/usr/bin/env bash
# The time-lapse benchmark: N photos (12 MP JPEGs, a day apart) rendered to a 1080p H.264 MP4 at
# 0.3 s a photo and 30 fps, by Darkroom and by the ffmpeg command line, on the same inputs, in one run,
# with the same output size, frame rate, x264 preset and CRF. Prints both wall times, the ratio and
# both peak memories (/usr/bin/time -v).
#   Benchmarks/timelapse.sh [--quick]            365 photos (--quick: 40)
# Environment: PRESET (medium), CRF (20), DARKROOM_BIN (a built darkroom; default: build release),
# TIMELAPSE_WORK (where the photos are kept between runs; default /tmp/darkroom-timelapse-bench).
source "$(dirname "$0")/common.sh"
n=365; [ "${1:-}" = "--quick" ] && n=40
preset=${PRESET:-medium} crf=${CRF:-20}
work=${TIMELAPSE_WORK:-/tmp/darkroom-timelapse-bench}
photos="$work/photos-$n"
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
bin=${DARKROOM_BIN:-$(darkroom_binary)}

echo "photos: $n x 12 MP JPEG in $photos (generating if needed)"
"$ROOT/Benchmarks/timelapse-photos.sh" "$photos" "$n"
out="$work/out-$n"; rm -rf "$out"; mkdir -p "$out"

# measure NAME COMMAND...: runs it under /usr/bin/time -v; sets <NAME>_wall (s) and <NAME>_rss (MB).
measure() {
  local name=$1; shift
  /usr/bin/time -v -o "$out/$name.time" "$@" > "$out/$name.log" 2>&1 || { echo "$name failed:"; tail -20 "$out/$name.log"; exit 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$out/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$out/$name.time")
  printf -v "${name}_wall" '%s' "$wall"; printf -v "${name}_rss" '%s' "$rss"
}

cat > "$out/timelapse.yaml" <<YAML
steps:
  - exif-date:
      fallback-to-file-time: false
  - timelapse:
      seconds-per-frame: 0.3
      frame-rate: 30
      size: 1920x1080
      fit: contain
      crf: $crf
      preset: $preset
      output: timelapse.mp4
YAML
measure darkroom "$bin" run "$out/timelapse.yaml" --input "$photos" --library "$out/library"
measure ffmpeg ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" \
  -vf "scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,format=yuv420p" \
  -r 30 -c:v libx264 -preset "$preset" -crf "$crf" -movflags +faststart "$out/ffmpeg.mp4"

describe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=width,height,r_frame_rate,nb_read_frames:format=duration \
  -of default=nw=1:nk=0 "$1" | tr '\n' ' '; }
echo "darkroom output: $(describe "$out/library/timelapse.mp4")"
echo "ffmpeg output:   $(describe "$out/ffmpeg.mp4")"
printf '%-10s %10s %12s\n' "" "wall (s)" "peak RSS (MB)"
printf '%-10s %10.1f %12s\n' darkroom "$darkroom_wall" "$darkroom_rss" ffmpeg "$ffmpeg_wall" "$ffmpeg_rss"
printf 'ratio: Darkroom is %.2fx the speed of the ffmpeg CLI (%d photos, preset %s, crf %s)\n' \
  "$(echo "$ffmpeg_wall / $darkroom_wall" | bc -l)" "$n" "$preset" "$crf"
