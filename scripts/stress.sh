#!/usr/bin/env bash
# Hunts the heap corruption of issue 21: the camera-roll import run in-process (import-stress, which
# calls Runner as the test suite does) with --jobs 2, many times, under glibc's checking allocator
# (libc_malloc_debug with glibc.malloc.check=3, freed memory overwritten by glibc.malloc.perturb),
# on photos and damaged videos: the corpus's broken files, a few good photos, and videos made with
# the ffmpeg CLI as Tests/VideoTests/Clips.swift makes them (a 30-frame MJPEG AVI with every frame
# zeroed, one with four frames zeroed, a MOV cut short, a good clip).
#
#   scripts/stress.sh [RUNS] [JOBS]        (100 runs and 2 jobs by default)
#
# A run passes when import-stress exits 0 and prints the same result line as every other run. A run
# that dies leaves its core in its own folder, and every thread's backtrace is printed. Ends with
# "N of RUNS runs passed"; exits 1 when any failed. Set DARKROOM_CORPUS (../shared/corpus by default)
# and STRESS_KEEP=1 to keep the work folder.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
jobs=${2:-2}
corpus="${DARKROOM_CORPUS:-$(cd .. && pwd)/shared/corpus}"
[ -f "$corpus/manifest.tsv" ] || { echo "stress: no corpus at $corpus (set DARKROOM_CORPUS)" >&2; exit 2; }

swift build --product import-stress --traits Studio,Queue >/dev/null || { echo "stress: import-stress did not build" >&2; exit 2; }
binary="$(swift build --traits Studio,Queue --show-bin-path)/import-stress"
work=$(mktemp -d /tmp/darkroom-stress.XXXXXX)
[ -n "${STRESS_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
input="$work/input"
mkdir -p "$input/corpus" "$input/videos"

# The corpus's broken photos (corrupt, truncated, fuzzers' crash cases) and the repository's sample roll.
awk -F'\t' 'NR > 1 && $12 ~ /CORRUPT|TRUNCATED/ {print $1}' "$corpus/manifest.tsv" | while IFS= read -r path; do
  cp "$corpus/$path" "$input/corpus/$(echo "$path" | tr '/' '_')"
done
cp -R samples/camera-roll "$input/roll"

# Videos, as Tests/VideoTests/Clips.swift makes them.
ffmpeg_() { ffmpeg -v error -y "$@"; }
marked="color=c=0x3060c0:s=320x240:r=30:d=1,drawbox=x=0:y=0:w=80:h=60:color=red:t=fill"
ffmpeg_ -f lavfi -i "$marked" -c:v mjpeg -q:v 5 "$work/MVI_0001.AVI"
zero_frames() {  # SOURCE DESTINATION PYTHON-CONDITION-ON-INDEX: frames overwritten after their JPEG start marker
  ffprobe -v error -select_streams v -show_entries packet=pos,size -of csv=p=0 "$1" |
    python3 -c '
import sys
source, destination, condition = sys.argv[1:4]
data = bytearray(open(source, "rb").read())
for index, line in enumerate(sys.stdin):
    size, position = map(int, line.strip().split(","))
    if eval(condition, {"i": index}):
        data[position + 2:position + size] = bytes(size - 2)
open(destination, "wb").write(data)' "$1" "$2" "$3"
}
zero_frames "$work/MVI_0001.AVI" "$input/videos/MVI_0002.AVI" "10 <= i < 14"
zero_frames "$work/MVI_0001.AVI" "$input/videos/MVI_0003.AVI" "True"
ffmpeg_ -f lavfi -i "$marked" -c:v libx264 -preset ultrafast -pix_fmt yuv420p \
  -metadata creation_time=2021-05-09T08:00:00Z "$input/videos/clip.mp4"
ffmpeg_ -f lavfi -i "${marked/d=1/d=3}" -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$work/whole.mov"
head -c "$(($(stat -c %s "$work/whole.mov") / 2))" "$work/whole.mov" > "$input/videos/cut.mov"

# The shipped import, with the encoder preset made fast (as the tests make it).
sed 's/preset: medium/preset: ultrafast/' pipelines/import-camera-roll.yaml > "$work/import.yaml"

echo "stress: $runs in-process imports of $(find "$input" -type f | wc -l) files (--jobs $jobs) under glibc's checking allocator"
passed=0
expected=""
for run in $(seq 1 "$runs"); do
  folder="$work/run-$run"
  mkdir -p "$folder"
  (
    cd "$folder" || exit 2
    ulimit -c unlimited 2>/dev/null
    LD_PRELOAD=libc_malloc_debug.so.0 GLIBC_TUNABLES=glibc.malloc.check=3:glibc.malloc.perturb=165 \
      "$binary" "$work/import.yaml" "$input" "$folder/library" --jobs "$jobs" >"$folder/out" 2>"$folder/err"
  )
  status=$?
  result=$(tail -1 "$folder/out")
  [ -n "$expected" ] || [ "$status" -ne 0 ] || { expected=$result; cp "$folder/library-1.failures" "$work/expected.failures"; }
  if [ "$status" -eq 0 ] && [ "$result" = "$expected" ]; then
    passed=$((passed + 1))
    rm -rf "$folder"
  else
    if [ "$status" -gt 128 ]; then why="killed by signal $((status - 128))"
    elif [ "$status" -ne 0 ]; then why="exit status $status"
    else why="a different result: $result (expected $expected)"; fi
    echo "run $run failed: $why; its output is in $folder"
    [ ! -f "$folder/library-1.failures" ] || diff "$work/expected.failures" "$folder/library-1.failures" | grep '^[<>]' | head -6
    tail -5 "$folder/err"
    mapfile -t dumped < <(find "$folder" -maxdepth 1 -type f -name 'core*')
    [ ${#dumped[@]} -eq 0 ] || scripts/backtraces.sh "${dumped[@]}"
    trap - EXIT  # keep the work folder for the failed runs
  fi
  [ $((run % 10)) -ne 0 ] || echo "stress: $run runs, $passed passed"
done
echo "result of every run: $expected"
echo "$passed of $runs runs passed"
[ "$passed" -eq "$runs" ]
