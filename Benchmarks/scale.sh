#!/usr/bin/env bash
# A library of N photos: what the nightly import, the gallery and the catalog's checks cost as the
# library grows, as a total and a file, with peak memory.
#
#   Benchmarks/scale.sh [--quick | --full]
#
# N = 1,000 and 10,000 (--quick: 1,000 only; --full: 100,000 too, about an hour more on two cores). The photos are small and
# unique (Benchmarks/make-unique-photos.py: one 96x64 JPEG with a different tail each, an hour apart by
# file time, 1,000 a folder), made once and kept in bench-out/inputs/scale. For each N, on a fresh library:
#   1. the import (pipelines/import-camera-roll.yaml), first run, watched as it goes: the CPU a photo of
#      each tenth of its photos and its anonymous memory (Benchmarks/cost-through-run.py). Target: the
#      last tenth's cost a photo within 10 % of the second's (the first holds the start-up);
#   2. the same import again with nothing new (median of REPEAT=3). Target: 0.1 ms a file;
#   3. the gallery (pipelines/gallery.yaml over the library's Photos/), first run and again with nothing new;
#   4. `darkroom catalog verify` (hashes every output), beside `sha256sum` over the same files;
#   5. `darkroom catalog rebuild` of the library with its catalog set aside (hashes every file again).
# Every run's log stays in the scratch folder with KEEP=1.
source "$(dirname "$0")/bench-lib.sh"
sizes=(1000 10000)
case "${1:-}" in --quick) sizes=(1000) ;; --full) sizes+=(100000) ;; esac
repeat=${REPEAT:-3}
header "scale ${sizes[*]}"
bin=$(bench_bin)
bench_scratch scale

photos="$BENCH_OUT/inputs/scale"
mkdir -p "$photos"
if [ ! -f "$photos/base.jpg" ]; then
  vips gaussnoise "$photos/base.png" 96 64 --mean 128 --sigma 40
  vips copy "$photos/base.png" "$photos/base.jpg[Q=85]"
fi
largest=${sizes[-1]}
python3 "$ROOT/Benchmarks/make-unique-photos.py" "$photos/base.jpg" "$photos/in" "$largest"

# row LABEL N NAME: one line of the table from measure's NAME_* figures.
row() {
  local wall=${3}_wall cpu=${3}_cpu rss=${3}_rss
  printf '%-8s %-26s %9s %12s %9s %10s\n' "$2" "$1" "${!wall}" "$(calc "1000 * ${!wall} / $2")" "$(calc "${!cpu}")" "$(( ${!rss} / 1024 ))"
}

echo
printf '%-8s %-26s %9s %12s %9s %10s\n' files step "wall s" "ms a file" "CPU s" "peak MB"
for n in "${sizes[@]}"; do
  inputs=()
  for folder in $(seq 0 $(( n / 1000 - 1 ))); do inputs+=(--input "$photos/in/$(printf '%05d' "$folder")"); done
  lib="$SCRATCH/lib-$n"
  import=("$bin" run "$ROOT/pipelines/import-camera-roll.yaml" "${inputs[@]}" --library "$lib" --jobs "$JOBS" --quiet)
  gallery=("$bin" run "$ROOT/pipelines/gallery.yaml" --input "$lib/Photos" --library "$lib" --jobs "$JOBS" --quiet)

  # The first import is watched as it goes (its CPU and memory against the photos published so far).
  python3 "$ROOT/Benchmarks/cost-through-run.py" watch "$lib" "$SCRATCH/through-$n" "$(( n / 4000 > 1 ? n / 4000 : 1 ))" &
  watcher=$!
  measure first "${import[@]}"; row "import, first run" "$n" first
  wait "$watcher" || echo "  warning: the first import was not watched"
  grep -q "$n processed" "$SCRATCH/first.log" || echo "  warning: $(grep -m1 'found:' "$SCRATCH/first.log")"
  python3 "$ROOT/Benchmarks/cost-through-run.py" tenths "$SCRATCH/through-$n" "$n" > "$SCRATCH/tenths-$n" 2>&1 || true
  walls=(); cpus=(); rsss=()
  for i in $(seq 1 "$repeat"); do
    measure noop "${import[@]}"
    grep -q " 0 processed" "$SCRATCH/noop.log" || echo "  warning: the re-run did work: $(grep -m1 'found:' "$SCRATCH/noop.log")"
    walls+=("$noop_wall"); cpus+=("$noop_cpu"); rsss+=("$noop_rss")
  done
  noop_wall=$(median "${walls[@]}"); noop_cpu=$(median "${cpus[@]}"); noop_rss=$(median "${rsss[@]}")
  row "import, nothing new" "$n" noop
  eval "noop_$n=$noop_wall"

  measure gallery_first "${gallery[@]}"; row "gallery, first run" "$n" gallery_first
  measure gallery_again "${gallery[@]}"; row "gallery, nothing new" "$n" gallery_again

  measure verify "$bin" catalog verify --library "$lib"; row "catalog verify" "$n" verify
  # The same files sha256sum reads: every file of the library but its .darkroom folder.
  (cd "$lib" && find . -path ./.darkroom -prune -o -type f -print0 > "$SCRATCH/files-$n")
  measure sha "sh" -c "cd '$lib' && xargs -0 sha256sum < '$SCRATCH/files-$n' > /dev/null"; row "sha256sum, same files" "$n" sha

  # The catalog is set aside outside the library (inside, the rebuild would take it for a file of the library).
  mv "$lib/.darkroom" "$SCRATCH/catalog-kept-$n"
  measure rebuild "$bin" catalog rebuild --library "$lib"; row "catalog rebuild" "$n" rebuild
  rm -rf "$lib/.darkroom"; mv "$SCRATCH/catalog-kept-$n" "$lib/.darkroom"
  [ "${KEEP:-0}" = 1 ] || rm -rf "$lib"
done

for n in "${sizes[@]}"; do
  echo; echo "the first import of $n, a tenth of its photos at a time (Benchmarks/cost-through-run.py):"; cat "$SCRATCH/tenths-$n"
done
flat=$(sed -n 's/^last tenth vs second: \([0-9.]*\)x.*/\1/p' "$SCRATCH/tenths-${sizes[-1]}")
[ -n "$flat" ] && summary "scale: first import of ${sizes[-1]}, cost a photo, last tenth vs second" "${flat}x" "<=1.10x" "$(met le "$flat" 1.10)"

echo
last=${sizes[-1]}; per=$(calc "1000 * $(eval echo "\$noop_$last") / $last")
summary "scale: no-op re-run of $last files" "${per} ms a file" "<=0.1 ms" "$(met le "$per" 0.1)"
