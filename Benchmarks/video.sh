#!/usr/bin/env bash
# Videos: Darkroom against the plain tools on the same generated files, in one run.
#
#   Benchmarks/video.sh [--quick]
#
# Inputs (generated once into bench-out/inputs/video-*, 1920x1080 30 fps with AAC sound, each file
# given its own tag so that none is a duplicate):
#   roll     full 6 x 30 s H.264 MOVs (3 minutes); quick 3 x 20 s
#   posters  full 16, quick 8 clips of 6 s, half H.264, half HEVC
#   hevc     one HEVC MOV, full 20 s, quick 8 s
#   big      one MOV made by concatenating a 10 s high-bitrate clip with -c copy: full 2 GB, quick 512 MB
#
# What is timed (wall seconds, peak RSS from GNU time):
#   copy     pipelines/import-camera-roll.yaml (video-encode copy: remuxed into MP4, plus a poster
#            thumbnail) over the roll, against `cp` of the same files plus `sha256sum` of them.
#            Target: Darkroom within 1.5x of cp + sha256sum.
#   posters  exif-date + thumbnail { size: 200 } over the poster clips, --jobs $(nproc), against
#            `ffmpeg -ss 1 -i IN -frames:v 1 -vf scale=200:-2 OUT.jpg` per clip under xargs -P $(nproc)
#            (and one after another, for information). Target: at least as fast (ratio >= 1).
#   transcode  video-encode { codec: h264, crf: 23, preset: medium } of the HEVC file, against
#            `ffmpeg -i IN -c:v libx264 -crf 23 -preset medium -pix_fmt yuv420p -c:a copy -movflags +faststart`.
#            Target: at least as fast (ratio >= 1).
#   memory   peak RSS of the copy import of the big file, against that of one roll clip.
#            Target: the big file's peak within 1.2x of the small one's (memory does not grow with the file).
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then roll_n=3 roll_s=20 poster_n=8 hevc_s=8 big_mb=512; else roll_n=6 roll_s=30 poster_n=16 hevc_s=20 big_mb=2048; fi
header "video$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch video
inputs="$BENCH_OUT/inputs"

# make_clip OUT SECONDS CODEC [extra ffmpeg output options]: a 1080p clip with moving detail and sound.
make_clip() {
  local out=$1 seconds=$2 codec=$3; shift 3
  [ -f "$out" ] && return 0
  # About a phone's bit rates (1080p30: H.264 17 Mbit/s, HEVC 10 Mbit/s); the noise keeps the encoder busy.
  local enc=(-c:v libx264 -preset veryfast -b:v 17M -maxrate 20M -bufsize 40M)
  [ "$codec" = hevc ] && enc=(-c:v libx265 -preset ultrafast -b:v 10M -tag:v hvc1 -x265-params log-level=error)
  ffmpeg -v error -y -f lavfi -i "testsrc2=s=1920x1080:r=30:d=$seconds,noise=alls=12:allf=t" -f lavfi -i "sine=f=440:d=$seconds" \
    "${enc[@]}" -pix_fmt yuv420p -c:a aac -shortest "$@" "$out.tmp.mov" && mv "$out.tmp.mov" "$out"
}
# tagged SRC DST N: a copy of SRC with its own comment tag (a different file, the same streams).
tagged() { [ -f "$2" ] || ffmpeg -v error -y -i "$1" -map 0 -c copy -metadata comment="copy $3" -metadata creation_time="2024-05-0${3}T10:00:00Z" "$2"; }

roll="$inputs/video-roll-$roll_n-$roll_s"; mkdir -p "$roll"
make_clip "$inputs/video-base-$roll_s.mov" "$roll_s" h264
for i in $(seq 1 "$roll_n"); do tagged "$inputs/video-base-$roll_s.mov" "$roll/IMG_$i.MOV" "$i"; done
posters="$inputs/video-posters-$poster_n"; mkdir -p "$posters"
make_clip "$inputs/video-poster-h264.mov" 6 h264
make_clip "$inputs/video-poster-hevc.mov" 6 hevc
for i in $(seq 1 "$poster_n"); do
  codec=h264; [ $((i % 2)) = 0 ] && codec=hevc
  tagged "$inputs/video-poster-$codec.mov" "$posters/CLIP_$(printf %02d "$i").MOV" "$((i % 9 + 1))"
done
hevc="$inputs/video-hevc-$hevc_s.mov"
make_clip "$hevc" "$hevc_s" hevc
big="$inputs/video-big-$big_mb.mov"
if [ ! -f "$big" ]; then
  make_clip "$inputs/video-dense.mov" 10 h264 -b:v 60M -maxrate 60M -bufsize 120M
  dense=$(stat -c %s "$inputs/video-dense.mov"); copies=$(( big_mb * 1024 * 1024 / dense + 1 ))
  for _ in $(seq 1 "$copies"); do echo "file '$inputs/video-dense.mov'"; done > "$SCRATCH/concat.txt"
  ffmpeg -v error -y -f concat -safe 0 -i "$SCRATCH/concat.txt" -c copy "$big.tmp.mov" && mv "$big.tmp.mov" "$big"
fi
mkdir -p "$SCRATCH/big" "$SCRATCH/small"; ln -f "$big" "$SCRATCH/big/"; cp "$roll/IMG_1.MOV" "$SCRATCH/small/"
echo "inputs: roll $roll_n x ${roll_s}s ($(bytes_of "$roll"/*.MOV) bytes), posters $poster_n x 6 s, HEVC ${hevc_s}s, big $(bytes_of "$big") bytes"

import=("$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --jobs "$JOBS")

# --- copy import vs cp + sha256sum
cat "$roll"/*.MOV > /dev/null
measure darkroom_copy "${import[@]}" --input "$roll" --library "$SCRATCH/lib-copy"
mkdir -p "$SCRATCH/cp"
measure reference_copy bash -c "cp \"$roll\"/*.MOV \"$SCRATCH/cp/\" && sha256sum \"$roll\"/*.MOV > /dev/null"
echo "copy import: darkroom ${darkroom_copy_wall} s (peak $((darkroom_copy_rss / 1024)) MB; $(grep -m1 'found:' "$SCRATCH/darkroom_copy.log")), cp + sha256sum ${reference_copy_wall} s"
ls -R "$SCRATCH/lib-copy/Videos" | grep -c '\.mp4$' | xargs echo "  remuxed MP4s:"
copy_ratio=$(calc "$darkroom_copy_wall / $reference_copy_wall")
summary "video copy import / (cp + sha256sum)" "${copy_ratio}x" "<=1.5x" "$(met le "$copy_ratio" 1.5)"

# --- poster frames vs ffmpeg -ss 1
cat > "$SCRATCH/posters.yaml" <<'YAML'
inputs: { include: ["**/*.mov"] }
steps:
  - exif-date
  - thumbnail: { size: 200, quality: 80, output: "{name}.jpg" }
YAML
cat "$posters"/*.MOV > /dev/null
measure darkroom_posters "$bin" run "$SCRATCH/posters.yaml" --input "$posters" --library "$SCRATCH/lib-posters" --jobs "$JOBS"
mkdir -p "$SCRATCH/ff-posters"
ffposter() { for f in "$@"; do ffmpeg -v error -y -ss 1 -i "$f" -frames:v 1 -vf scale=200:-2 -q:v 4 "$SCRATCH/ff-posters/$(basename "$f").jpg"; done; }
export -f ffposter; export SCRATCH
measure ffmpeg_posters_P bash -c "printf '%s\0' \"$posters\"/*.MOV | xargs -0 -n 2 -P $JOBS bash -c 'ffposter \"\$@\"' _"
measure ffmpeg_posters_1 bash -c "ffposter \"$posters\"/*.MOV"
echo "posters ($poster_n clips): darkroom ${darkroom_posters_wall} s, ffmpeg -P $JOBS ${ffmpeg_posters_P_wall} s, ffmpeg one by one ${ffmpeg_posters_1_wall} s"
poster_ratio=$(calc "$ffmpeg_posters_P_wall / $darkroom_posters_wall")
summary "video posters: ffmpeg -P / darkroom" "${poster_ratio}x" ">=1x" "$(met ge "$poster_ratio" 1)"

# --- HEVC to H.264 transcode vs the ffmpeg CLI
mkdir -p "$SCRATCH/hevc"; cp "$hevc" "$SCRATCH/hevc/IMG_9000.MOV"
cat > "$SCRATCH/transcode.yaml" <<'YAML'
inputs: { include: ["**/*.mov"] }
steps:
  - exif-date
  - video-encode: { codec: h264, crf: 23, preset: medium, output: "{name}.mp4" }
YAML
cat "$hevc" > /dev/null
measure darkroom_transcode "$bin" run "$SCRATCH/transcode.yaml" --input "$SCRATCH/hevc" --library "$SCRATCH/lib-transcode"
measure ffmpeg_transcode ffmpeg -v error -y -i "$hevc" -c:v libx264 -crf 23 -preset medium -pix_fmt yuv420p -c:a copy -movflags +faststart "$SCRATCH/ffmpeg-transcode.mp4"
describe() { ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height,pix_fmt,nb_frames -of csv=p=0 "$1"; }
echo "transcode (${hevc_s} s HEVC 1080p to H.264): darkroom ${darkroom_transcode_wall} s ($(describe "$SCRATCH/lib-transcode/IMG_9000.mp4"), $(bytes_of "$SCRATCH/lib-transcode/IMG_9000.mp4") bytes, peak $((darkroom_transcode_rss / 1024)) MB), ffmpeg ${ffmpeg_transcode_wall} s ($(describe "$SCRATCH/ffmpeg-transcode.mp4"), $(bytes_of "$SCRATCH/ffmpeg-transcode.mp4") bytes, peak $((ffmpeg_transcode_rss / 1024)) MB)"
transcode_ratio=$(calc "$ffmpeg_transcode_wall / $darkroom_transcode_wall")
summary "video transcode: ffmpeg / darkroom" "${transcode_ratio}x" ">=1x" "$(met ge "$transcode_ratio" 1)"

# --- memory: a big file against a small one
measure darkroom_small "${import[@]}" --input "$SCRATCH/small" --library "$SCRATCH/lib-small"
measure darkroom_big "${import[@]}" --input "$SCRATCH/big" --library "$SCRATCH/lib-big"
echo "memory: $(bytes_of "$roll/IMG_1.MOV") bytes peak ${darkroom_small_rss} KB (${darkroom_small_wall} s); $(bytes_of "$big") bytes peak ${darkroom_big_rss} KB (${darkroom_big_wall} s; $(grep -m1 'found:' "$SCRATCH/darkroom_big.log"))"
memory_ratio=$(calc "$darkroom_big_rss / $darkroom_small_rss")
summary "video memory: ${big_mb} MB file / one clip" "${memory_ratio}x" "<=1.2x" "$(met le "$memory_ratio" 1.2)"
