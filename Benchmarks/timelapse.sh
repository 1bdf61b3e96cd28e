#!/usr/bin/env bash
# The time-lapse benchmark: N photos (12 MP JPEGs, a day apart) to a 1080p H.264 MP4 at 0.3 s a photo
# and 30 fps, same size, preset and CRF everywhere, on the same inputs, in one run:
#   darkroom           the timelapse stage (frame-timing: variable, the default: one frame a photo)
#   ffmpeg-30fps       the ffmpeg CLI as people run it: -framerate 10/3 -i ... -r 30 (9 frames a photo)
#   ffmpeg-held        the ffmpeg CLI's fastest equivalent: -framerate 10/3, no -r (one frame a photo)
#   x264-darkroom      the floor: x264 alone (the ffmpeg CLI, bf 0 as Darkroom's held frames) on Darkroom's
#                      own frames, captured beforehand (an untimed lossless run, decoded to .y4m)
#   x264-ffmpeg        x264 alone on the ffmpeg CLI's fitted frames (the same photos decoded and scaled by
#                      ffmpeg beforehand): what x264 costs on the reference's frames
#   darkroom-constant  (at the counts in CONSTANT_AT, default 40) frame-timing: constant, every frame
#                      encoded: how Darkroom worked before
# Prints wall time, CPU time and use of the two cores, peak RSS (GNU time) and bytes of each, the ratios,
# and each output's frames, duration and timestamps (ffprobe); for N <= 40 the SSIM of each output
# against the frames it was made from (Darkroom's own frames for Darkroom, ffmpeg's for ffmpeg).
#   Benchmarks/timelapse.sh [--quick]      40 and 365 photos (--quick: 40); peak memory 365 / 40
# Environment: PRESET (medium), CRF (20), COUNTS ("40 365"), CONSTANT_AT ("40"), DARKROOM_BIN (a built
# darkroom; default: build release), TIMELAPSE_WORK (photos kept between runs; default
# /tmp/darkroom-timelapse-bench).
source "$(dirname "$0")/bench-lib.sh"
counts=${COUNTS:-40 365}; [ "${1:-}" = "--quick" ] && counts=${COUNTS:-40}
preset=${PRESET:-medium} crf=${CRF:-20}
work=${TIMELAPSE_WORK:-/tmp/darkroom-timelapse-bench}
fit="scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,format=yuv420p"
header "timelapse$([ "${1:-}" = "--quick" ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch timelapse

# timed NAME COMMAND...: runs it under GNU time; sets NAME_wall, NAME_cpu (user + sys s), NAME_rss (MB).
timed() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$SCRATCH/$name.time" "$@" > "$SCRATCH/$name.log" 2>&1 \
    || { echo "$name failed: $*" >&2; tail -20 "$SCRATCH/$name.log" >&2; exit 1; }
  local wall user sys rss; read -r wall user sys rss < <(tail -1 "$SCRATCH/$name.time")
  printf -v "${name//-/_}_wall" '%s' "$wall"; printf -v "${name//-/_}_cpu" '%s' "$(calc "$user + $sys")"
  printf -v "${name//-/_}_rss" '%s' "$((rss / 1024))"
}

# describe FILE: frames in the stream, duration, the first presented timestamps (s) and the frame rate.
describe() {
  printf '%s frames, %ss, starts %s..., r_frame_rate %s' \
    "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1")" \
    "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$1")" \
    "$(ffprobe -v error -select_streams v:0 -show_entries frame=pts_time -of csv=p=0 "$1" | grep . | sort -g | head -4 | paste -sd' ')" \
    "$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$1")"
}

# ssim_vs_source FILE Y4M: mean SSIM of the picture FILE shows in each photo's slot (sampled at 10/3
# fps) against the frames it was encoded from (one a photo).
ssim_vs_source() {
  ffmpeg -v error -nostats -i "$1" -i "$2" -lavfi "[0:v]fps=10/3:round=near,setpts=N[a];[1:v]setpts=N[b];[a][b]ssim=stats_file=-" -f null - 2>&1 \
    | awk '{for(i=1;i<=NF;i++) if($i ~ /^All:/){split($i,a,":"); s+=a[2]; n++}} END {if(n) printf "%.4f", s/n}'
}

for n in $counts; do
  runs=(darkroom ffmpeg-30fps ffmpeg-held x264-darkroom x264-ffmpeg)
  [[ " ${CONSTANT_AT:-40} " == *" $n "* ]] && runs+=(darkroom-constant)
  photos="$work/photos-$n"
  echo; echo "-- $n photos of 12 MP ($photos, generated if needed), 1920x1080, 0.3 s a photo at 30 fps, preset $preset, crf $crf"
  "$ROOT/Benchmarks/timelapse-photos.sh" "$photos" "$n"
  out="$SCRATCH/$n"; mkdir -p "$out"
  cat "$photos"/*.jpg > /dev/null   # every run reads them from the page cache
  for setting in "variable $crf $preset" "constant $crf $preset" "variable 0 ultrafast"; do
    read -r timing quality speed <<< "$setting"
    cat > "$out/$timing-$quality.yaml" <<YAML
steps:
  - exif-date:
      fallback-to-file-time: false
  - timelapse:
      seconds-per-frame: 0.3
      frame-rate: 30
      frame-timing: $timing
      size: 1920x1080
      fit: contain
      crf: $quality
      preset: $speed
      output: timelapse.mp4
YAML
  done
  # The floors' inputs, untimed: the photos decoded and fitted by ffmpeg; Darkroom's own frames
  # (lossless H.264, one frame a photo) decoded.
  ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" -vf "$fit" "$out/fitted.y4m"
  "$bin" run "$out/variable-0.yaml" --input "$photos" --library "$out/lib-lossless" > "$out/lossless.log" 2>&1
  ffmpeg -y -v error -i "$out/lib-lossless/timelapse.mp4" -vf "fps=10/3:round=near" -pix_fmt yuv420p "$out/darkroom.y4m"
  rm -rf "$out/lib-lossless"
  x264=(-c:v libx264 -preset "$preset" -crf "$crf" -movflags +faststart)
  for run in "${runs[@]}"; do
    case $run in
      darkroom) timed "$run" "$bin" run "$out/variable-$crf.yaml" --input "$photos" --library "$out/lib-variable" ;;
      darkroom-constant) timed "$run" "$bin" run "$out/constant-$crf.yaml" --input "$photos" --library "$out/lib-constant" ;;
      ffmpeg-30fps) timed "$run" ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" -vf "$fit" -r 30 "${x264[@]}" "$out/$run.mp4" ;;
      ffmpeg-held) timed "$run" ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" -vf "$fit" "${x264[@]}" "$out/$run.mp4" ;;
      x264-darkroom) timed "$run" ffmpeg -y -v error -i "$out/darkroom.y4m" "${x264[@]}" -bf 0 "$out/$run.mp4" ;;
      x264-ffmpeg) timed "$run" ffmpeg -y -v error -i "$out/fitted.y4m" "${x264[@]}" "$out/$run.mp4" ;;
    esac
  done
  [ -f "$out/lib-variable/timelapse.mp4" ] && mv "$out/lib-variable/timelapse.mp4" "$out/darkroom.mp4"
  [ -f "$out/lib-constant/timelapse.mp4" ] && mv "$out/lib-constant/timelapse.mp4" "$out/darkroom-constant.mp4"

  printf '%-18s %9s %9s %6s %9s %12s %8s\n' "" "wall s" "CPU s" "cores" "peak MB" "bytes" "SSIM"
  for run in "${runs[@]}"; do
    v=${run//-/_}; w=${v}_wall; c=${v}_cpu; r=${v}_rss
    source_frames=$out/fitted.y4m; [[ $run == *darkroom* ]] && source_frames=$out/darkroom.y4m
    s=-; [ "$n" -le 40 ] && s=$(ssim_vs_source "$out/$run.mp4" "$source_frames")
    printf '%-18s %9.1f %9.1f %6.2f %9s %12s %8s\n' "$run" "${!w}" "${!c}" "$(calc "${!c} / ${!w}")" "${!r}" "$(bytes_of "$out/$run.mp4")" "$s"
    printf -v "rss_${v}_$n" '%s' "${!r}"
  done
  for run in "${runs[@]}"; do echo "  $run: $(describe "$out/$run.mp4")"; done
  as_run=$(calc "$ffmpeg_30fps_wall / $darkroom_wall"); held=$(calc "$ffmpeg_held_wall / $darkroom_wall")
  echo "Darkroom is ${as_run}x the ffmpeg CLI as people run it, ${held}x its fastest equivalent;" \
    "x264 alone on Darkroom's frames takes $(calc "100 * $x264_darkroom_cpu / $darkroom_cpu")% of Darkroom's CPU time" \
    "($(calc "100 * $x264_darkroom_wall / $darkroom_wall")% of its wall time); on ffmpeg's frames x264 takes" \
    "$(calc "100 * $x264_ffmpeg_cpu / $x264_darkroom_cpu")% of its CPU time on Darkroom's"
  summary "timelapse $n: vs ffmpeg -r 30" "${as_run}x" ">=3x" "$(met ge "$as_run" 3)"
  summary "timelapse $n: vs ffmpeg held frames" "${held}x" ">=1.3x" "$(met ge "$held" 1.3)"
  rm -f "$out/fitted.y4m" "$out/darkroom.y4m"
done

set -- $counts
if [ $# -ge 2 ]; then
  small=rss_darkroom_$1 large=rss_darkroom_${!#}
  ratio=$(calc "${!large} / ${!small}")
  echo; echo "Darkroom's peak RSS: $1 photos ${!small} MB, ${!#} photos ${!large} MB"
  summary "timelapse: peak RSS ${!#} / $1 photos" "${ratio}x" "<=1.1x" "$(met le "$ratio" 1.1)"
fi
