#!/usr/bin/env bash
# What starting the native libraries costs a darkroom process (NativeRuntime, docs/runtime.md).
#
#   Benchmarks/runtime-start.sh [RUNS]      (20 runs by default)
#
# Runs `darkroom run` RUNS times on one small JPEG (thumbnail only) with -vv and reads the runtime's
# own debug line ("native libraries started in X ms: libvips 8.14.1 (a ms), ..."), then prints the
# median of the whole start and of each library's part, and the median wall time of the command for
# scale. x265's part is one 64x64 encode: what warming it at start costs every process, against
# serialising the first HEIC encode (which would hold every other photo's first encode for the
# seconds one encode takes).
source "$(dirname "$0")/bench-lib.sh"
runs=${1:-20}
header "runtime start ($runs runs)"
bin=$(bench_bin)
bench_scratch runtime-start
mkdir -p "$SCRATCH/in"
convert -size 320x240 plasma:green-brown -quality 90 "$SCRATCH/in/photo.jpg"
printf 'steps:\n  - exif-date:\n      fallback-to-file-time: true\n  - thumbnail\n' > "$SCRATCH/p.yaml"

declare -A parts
order=()
walls=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  line=$("$bin" run "$SCRATCH/p.yaml" --input "$SCRATCH/in" --library "$SCRATCH/lib-$i" -vv 2>&1 >/dev/null | grep -m1 "native libraries started in")
  walls+=("$(echo "($(date +%s.%N) - $start) * 1000" | bc -l)")
  [ -n "$line" ] || { echo "no runtime line in darkroom's output (run $i)" >&2; exit 1; }
  parts[total]+=" $(echo "$line" | sed -E 's/.*started in ([0-9.]+) ms.*/\1/')"
  while IFS=$'\t' read -r name ms; do
    [ -n "${parts[$name]:-}" ] || order+=("$name")
    parts[$name]+=" $ms"
  done < <(
    echo "$line" | sed -E 's/.*ms: //' | tr ',' '\n' | sed -E 's/^ *(.*) \(([0-9.]+) ms\)$/\1\t\2/')
done
echo "darkroom: $bin"
printf '%-40s %10s\n' "part" "median ms"
printf '%-40s %10s\n' "whole start" "$(median ${parts[total]})"
for name in "${order[@]}"; do printf '%-40s %10s\n' "$name" "$(median ${parts[$name]})"; done
printf '%-40s %10.0f\n' "the whole command (wall)" "$(median "${walls[@]}")"
summary "runtime start (median ms)" "$(median ${parts[total]})" "-" "-"
