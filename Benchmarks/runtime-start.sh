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
#
# Then a run's own start-up (issue 21's "under 50 ms": the runtime, the catalog, the pipeline, the
# run record), as CPU: an import of an empty folder into an existing library against `darkroom --help`,
# RUNS times each, interleaved, median user+sys of each and their difference. `--help` pays what every
# process of this binary pays before `main` (the dynamic loader mapping and relocating its ~226 shared
# libraries) and nothing of a run.
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
  out=$("$bin" run "$SCRATCH/p.yaml" --input "$SCRATCH/in" --library "$SCRATCH/lib-$i" -vv 2>&1 >/dev/null)
  line=$(grep -m1 "native libraries started in" <<< "$out" || true)
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

mkdir -p "$SCRATCH/empty"
"$bin" run "$SCRATCH/p.yaml" --input "$SCRATCH/empty" --library "$SCRATCH/lib-empty" > /dev/null 2>&1
cpu_ms() { /usr/bin/time -f "%U %S" -o "$SCRATCH/cpu" "$@" > /dev/null 2>&1; awk '{printf "%.0f", ($1 + $2) * 1000}' "$SCRATCH/cpu"; }
empty=(); help=()
for i in $(seq 1 "$runs"); do
  empty+=("$(cpu_ms "$bin" run "$SCRATCH/p.yaml" --input "$SCRATCH/empty" --library "$SCRATCH/lib-empty")")
  help+=("$(cpu_ms "$bin" --help)")
done
run_start=$(( $(median "${empty[@]}" | cut -d. -f1) - $(median "${help[@]}" | cut -d. -f1) ))
printf '%-40s %10s\n' "empty import (CPU)" "$(median "${empty[@]}")"
printf '%-40s %10s\n' "darkroom --help (CPU)" "$(median "${help[@]}")"
printf '%-40s %10s\n' "a run's own start-up (CPU, difference)" "$run_start"
summary "runtime start (median ms)" "$(median ${parts[total]})" "-" "-"
met=MISSED; [ "$run_start" -lt 50 ] && met=met
summary "run start-up beyond --help (ms CPU)" "$run_start" "<50" "$met"
