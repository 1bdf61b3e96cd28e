#!/usr/bin/env bash
# The unaligned time-lapse against the ffmpeg CLI as people run it, at equal quality of the frames
# rather than at equal CRF (issue 23): 40 photos of 12 MP (Benchmarks/timelapse-photos.sh) to a 1080p
# H.264 MP4 at 0.3 s a photo, preset medium.
#
# Quality is the SSIM (RGB, ffmpeg's ssim filter) of the picture each output shows for each photo (its
# letterboxed picture area, sampled at 10/3 fps) against one reference for both: each photo scaled to
# that picture size from its full decode by a high-quality resampler (REFERENCE=ffmpeg: swscale lanczos
# with accurate rounding and full chroma; REFERENCE=vips: libvips' Lanczos 3 resize). Each output is read
# back to RGB with the matrix it is tagged with (Darkroom: BT.709; the ffmpeg CLI: BT.601).
#
# The ffmpeg CLI runs at FFMPEG_CRF (20): its SSIM is the quality to give. Darkroom runs at each CRF of
# CRFS ("20 22 24 26"). Rounds are interleaved (ffmpeg, Darkroom at each CRF, ffmpeg, ...: ROUNDS, 2)
# since the machine is shared; the medians of wall and CPU time are printed with each SSIM. The
# cheapest Darkroom CRF whose SSIM is at least ffmpeg's is the pair compared: the speed ratio, wall and CPU.
#   Benchmarks/timelapse-quality.sh
# Environment: COUNT (40), PRESET (medium), FFMPEG_CRF (20), CRFS, ROUNDS, REFERENCE (ffmpeg), DARKROOM_BIN,
# TIMELAPSE_WORK (photos kept between runs, as timelapse.sh: /tmp/darkroom-timelapse-bench).
source "$(dirname "$0")/bench-lib.sh"
n=${COUNT:-40} preset=${PRESET:-medium} ffmpeg_crf=${FFMPEG_CRF:-20} crfs=${CRFS:-20 22 24 26} rounds=${ROUNDS:-2}
reference=${REFERENCE:-ffmpeg}
header "timelapse at equal quality ($n photos, preset $preset, reference: $reference)"
bin=$(bench_bin)
bench_scratch timelapse-quality
timelapse_photos "$n"
px=$(( (1920 - pw) / 2 )) py=$(( (1080 - ph) / 2 ))
echo "picture area ${pw}x${ph} at ($px, $py)"

# The reference frames: each photo scaled to the picture area from its full decode, in RGB, one a photo.
case $reference in
  ffmpeg) ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" \
            -vf "scale=$pw:$ph:flags=lanczos+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24" -c:v rawvideo -f nut "$SCRATCH/ref.nut" ;;
  vips) mkdir -p "$SCRATCH/ref"; i=0
        for photo in "$photos"/*.jpg; do
          i=$((i + 1)); vips resize "$photo" "$(printf '%s/ref/%04d.png' "$SCRATCH" $i)" "$(calc "$pw / $(vipsheader -f width "$photo")")" \
            --vscale "$(calc "$ph / $(vipsheader -f height "$photo")")" --kernel lanczos3
        done
        ffmpeg -y -v error -framerate 10/3 -i "$SCRATCH/ref/%04d.png" -c:v rawvideo -pix_fmt rgb24 -f nut "$SCRATCH/ref.nut" ;;
  *) echo "REFERENCE must be ffmpeg or vips" >&2; exit 1 ;;
esac

# ssim_vs_reference VIDEO: mean SSIM of VIDEO's picture for each photo against the reference frames.
ssim_vs_reference() {
  local matrix=bt601
  [ "$(ffprobe -v error -select_streams v:0 -show_entries stream=color_space -of csv=p=0 "$1")" = bt709 ] && matrix=bt709
  ffmpeg -v error -nostats -i "$1" -i "$SCRATCH/ref.nut" -lavfi \
    "[0:v]fps=10/3:round=near,crop=$pw:$ph:$px:$py,scale=in_color_matrix=$matrix:in_range=tv,format=rgb24,settb=1,setpts=N[a];[1:v]format=rgb24,settb=1,setpts=N[b];[a][b]ssim=stats_file=-" \
    -f null - 2>&1 | awk '{for(i=1;i<=NF;i++) if($i ~ /^All:/){split($i,a,":"); s+=a[2]; n++}} END {if(n) printf "%.4f", s/n}'
}

fit="scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,format=yuv420p"
for crf in $crfs; do
  cat > "$SCRATCH/crf-$crf.yaml" <<YAML
steps:
  - exif-date: { fallback-to-file-time: false }
  - timelapse: { seconds-per-frame: 0.3, frame-rate: 30, size: 1920x1080, fit: contain, crf: $crf, preset: $preset, output: timelapse.mp4 }
YAML
done
runs=(ffmpeg); for crf in $crfs; do runs+=("darkroom_$crf"); done
declare -A walls cpus
for round in $(seq 1 "$rounds"); do
  for run in "${runs[@]}"; do
    rm -rf "$SCRATCH/lib-$run"
    case $run in
      ffmpeg) measure ffmpeg ffmpeg -y -v error -framerate 10/3 -pattern_type glob -i "$photos/*.jpg" -vf "$fit" -r 30 \
                -c:v libx264 -preset "$preset" -crf "$ffmpeg_crf" -movflags +faststart "$SCRATCH/ffmpeg.mp4" ;;
      *) measure "$run" "$bin" run "$SCRATCH/crf-${run#darkroom_}.yaml" --input "$photos" --library "$SCRATCH/lib-$run"
         mv "$SCRATCH/lib-$run/timelapse.mp4" "$SCRATCH/$run.mp4" ;;
    esac
    w=${run}_wall c=${run}_cpu
    walls[$run]+=" ${!w}" cpus[$run]+=" ${!c}"
  done
done

printf '\n%-14s %5s %8s %8s %8s %10s\n' "" CRF SSIM "wall s" "CPU s" bytes
best="" target=""
for run in "${runs[@]}"; do
  wall=$(median ${walls[$run]}) cpu=$(median ${cpus[$run]}) s=$(ssim_vs_reference "$SCRATCH/$run.mp4")
  crf=${run#darkroom_}; [ "$run" = ffmpeg ] && crf=$ffmpeg_crf
  printf '%-14s %5s %8s %8.1f %8.1f %10s   (walls:%s; CPU:%s)\n' "${run%%_*}" "$crf" "$s" "$wall" "$cpu" "$(bytes_of "$SCRATCH/$run.mp4")" "${walls[$run]}" "${cpus[$run]}"
  if [ "$run" = ffmpeg ]; then target=$s ffmpeg_w=$wall ffmpeg_c=$cpu
  elif ge "$s" "$target" && { [ -z "$best" ] || le "$wall" "$best_w"; }; then best=$crf best_w=$wall best_c=$cpu best_s=$s; fi
done
if [ -z "$best" ]; then
  echo "no Darkroom CRF of ($crfs) reaches the ffmpeg CLI's SSIM $target"
  summary "timelapse at equal SSIM vs ffmpeg -r 30" "none reached" ">=3x" MISSED
  exit 0
fi
ratio=$(calc "$ffmpeg_w / $best_w") cpu_ratio=$(calc "$ffmpeg_c / $best_c")
echo "equal quality: Darkroom at CRF $best (SSIM $best_s) against the ffmpeg CLI at CRF $ffmpeg_crf (SSIM $target):" \
  "${ratio}x its speed in wall time, ${cpu_ratio}x in CPU time"
summary "timelapse at equal SSIM vs ffmpeg -r 30" "${ratio}x (CPU ${cpu_ratio}x)" ">=3x" "$(met ge "$ratio" 3)"
