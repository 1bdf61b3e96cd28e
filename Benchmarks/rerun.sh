#!/usr/bin/env bash
# No-op re-run: darkroom's import-camera-roll pipeline over a roll, then again over the same roll into the
# same library (nothing to do: every photo is found done in the catalog, nothing decoded or written).
# Prints the time of the re-run as a fraction of the first run. Target: at most 2%.
#
#   Benchmarks/rerun.sh [--quick]
#
# Full: 100 photos; --quick: 10 photos; 12 MP generated JPEGs (4000x3000, K=4 distinct pictures, each
# copy with its own EXIF date). The re-run is timed REPEAT times (3) and the median counts. Also shown,
# for information: a re-run after every input's modification time changed (`touch`, as after copying
# a card again), which has to hash every file again but still decodes nothing.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then n=10; else n=100; fi
k=4 repeat=${REPEAT:-3}
header "rerun$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch rerun

in="$SCRATCH/in"
camera_roll "$in" rerun "$n" "$k"
echo "inputs: $n photos of 4000x3000, $(bytes_of "$in"/*.jpg) bytes"
cat "$in"/*.jpg > /dev/null
run=("$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$in" --library "$SCRATCH/lib" --jobs "$JOBS")

measure first "${run[@]}"
echo "first run:  $first_wall s, peak RSS $first_rss KB: $(grep -m1 'found:' "$SCRATCH/first.log")"
walls=()
for i in $(seq 1 "$repeat"); do
  measure "again_$i" "${run[@]}"
  w=again_${i}_wall; r=again_${i}_rss; walls+=("${!w}")
  echo "re-run $i:   ${!w} s, peak RSS ${!r} KB: $(grep -m1 'found:' "$SCRATCH/again_$i.log")"
  grep -q " 0 processed" "$SCRATCH/again_$i.log" || echo "  warning: the re-run did work"
done
again=$(median "${walls[@]}")
touch "$in"/*.jpg
measure touched "${run[@]}"
echo "after touch: $touched_wall s, peak RSS $touched_rss KB: $(grep -m1 'found:' "$SCRATCH/touched.log")"
frac=$(calc "100 * $again / $first_wall")
echo
echo "no-op re-run: median $again s = ${frac}% of the first run ($first_wall s); after touch (hash again): $(calc "100 * $touched_wall / $first_wall")%"
echo "per photo: first run $(calc "1000 * $first_wall / $n") ms, re-run $(calc "1000 * $again / $n") ms"
summary "rerun: no-op re-run / first run" "${frac}% (${again} s / ${first_wall} s)" "<=2%" "$(met le "$frac" 2)"
