#!/usr/bin/env bash
# Peak memory of an import as the roll grows: darkroom's import-camera-roll pipeline over a small and a
# large roll, peak RSS (GNU time, KB) of each, and their ratio. Memory must not grow with the number of
# photos: target large / small <= 1.2.
#
#   Benchmarks/memory.sh [--quick]
#
# Full: 50 vs 1000 photos of 2000x1500; --quick: 20 vs 200 photos of 640x480 (the HEIC encoding of a
# 2000x1500 photo costs about 4 CPU-seconds, which would take the quick run far past a few minutes;
# smaller photos make the fixed per-photo memory smaller, so growth with the count shows more, not
# less). SMALL=, LARGE= and SIZE=WxH override the counts and the size, e.g.
# `SIZE=640x480 Benchmarks/memory.sh` for the full counts with small photos (about 6 CPU-minutes). The photos are K=6 generated pictures (make_photos) copied
# round-robin, each copy with its own EXIF date (so none is deduplicated and they spread over ~3 years
# of folders). Both runs use --jobs $(nproc).
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then small=20 large=200 size=640x480; else small=50 large=1000 size=2000x1500; fi
small=${SMALL:-$small} large=${LARGE:-$large} size=${SIZE:-$size}
k=6
header "memory$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch memory

base=$(base_photos "$size" "$k")
for n in "$small" "$large"; do variants "$base" "$k" "$BENCH_OUT/inputs/mem-$size-$n" "$n"; done
echo "inputs: $small and $large photos of $size ($k distinct pictures)"

printf '%-8s %8s %10s %14s %s\n' photos "wall s" "photos/s" "peak RSS KB" summary
for n in "$small" "$large"; do
  in="$BENCH_OUT/inputs/mem-$size-$n"
  cat "$in"/*.jpg > /dev/null
  measure "run_$n" "$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$in" --library "$SCRATCH/lib-$n" --jobs "$JOBS"
  w=run_${n}_wall; r=run_${n}_rss
  printf '%-8s %8s %10.2f %14s %s\n' "$n" "${!w}" "$(calc "$n / ${!w}")" "${!r}" "$(grep -m1 'found:' "$SCRATCH/run_$n.log")"
done
rs=run_${small}_rss; rl=run_${large}_rss
ratio=$(calc "${!rl} / ${!rs}")
echo
echo "peak RSS: $small photos $(calc "${!rs} / 1024") MB, $large photos $(calc "${!rl} / 1024") MB: ratio ${ratio}x"
summary "memory: peak RSS ${large} / ${small} photos" "${ratio}x (${!rs} -> ${!rl} KB)" "<=1.2x" "$(met le "$ratio" 1.2)"

# The corpus: every file of ${DARKROOM_CORPUS:-../shared/corpus} (about 350 real files: cameras, phones,
# HEIC variants, videos, broken files, bombs, a 280 MP JPEG) imported in one run, against the bound: peak RSS at most twice the largest single photo's decode plus a
# fixed amount. The largest decode is measured, not assumed: each of the corpus's LARGEST (6) stills
# with the most pixels (the bombs among them: those refused from their header cost nothing) imported
# alone, minus the fixed amount, which is a run over one small photo. CORPUS_MEMORY=0 skips this part.
if [ "${CORPUS_MEMORY:-1}" = 1 ] && [ -f "$CORPUS/manifest.tsv" ]; then
  echo
  measure corpus_all "$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$CORPUS" --library "$SCRATCH/lib-corpus" --jobs "$JOBS"
  echo "corpus ($(find "$CORPUS" -type f | wc -l) files): peak RSS $corpus_all_rss KB, $corpus_all_wall s; $(grep -m1 'found:' "$SCRATCH/corpus_all.log")"
  tiny=$(base_photos 640x480 1)
  measure tiny "$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$tiny" --library "$SCRATCH/lib-tiny" --jobs "$JOBS"
  largest_rss=0; largest_file=""
  while IFS=$'\t' read -r path dims; do
    one="$SCRATCH/one/$(basename "$path")"; mkdir -p "$one"; cp "$CORPUS/$path" "$one/"
    measure single "$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$one" --library "$SCRATCH/lib-one" --jobs "$JOBS"
    echo "  alone: $path ($dims): peak RSS $single_rss KB"
    if [ "$single_rss" -gt "$largest_rss" ]; then largest_rss=$single_rss; largest_file="$path ($dims)"; fi
  done < <(awk -F'\t' 'NR > 1 && $12 !~ /CORRUPT|TRUNCATED/ && $4 ~ /JPEG|HEIC|AVIF|PNG|WebP|TIFF/ {print $5 * $6 "\t" $1 "\t" $5 "x" $6}' "$CORPUS/manifest.tsv" \
           | sort -rn | head -"${LARGEST:-6}" | cut -f2-)
  decode=$((largest_rss - tiny_rss)); bound=$((tiny_rss + 2 * decode))
  echo "fixed (one 640x480 photo): $tiny_rss KB; largest single photo: $largest_file, $largest_rss KB, so its decode is $decode KB;" \
    "bound = fixed + 2 x decode = $bound KB; corpus peak / bound: $(calc "$corpus_all_rss / $bound")x"
  summary "memory: corpus peak / bound" "$(calc "$corpus_all_rss / $bound")x ($corpus_all_rss KB)" "<=1x" "$(met le "$corpus_all_rss" "$bound")"
fi
