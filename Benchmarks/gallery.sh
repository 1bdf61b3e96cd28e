#!/usr/bin/env bash
# The gallery of a large library: pipelines/gallery.yaml over a library of N imported photos.
#
#   Benchmarks/gallery.sh [--quick]
#
# Full: 10,000 photos; --quick: 1,000. The library is made once (kept in bench-out/inputs): N copies of
# K=24 generated 480x360 JPEGs, each with its own EXIF date (one every 8.75 hours from 2015-01-01: ten
# years, about 83 a month), imported with a fast import pipeline (HEIC preset ultrafast, 200 px thumbnails).
# Then, on a fresh copy of that library:
#   1. the gallery run (a 1024 px rendition of each photo, then the pages), time and peak RSS; and for
#      reference vipsthumbnail making the same renditions from the same HEICs under xargs -P (ratio);
#   2. the pages: how many, bytes of the index and of the largest page;
#   3. the gallery run again with nothing new (median of REPEAT=3): every page made again in memory,
#      none written;
#   4. 20 photos more in one month, imported, then the gallery run: what it rewrites;
#   5. first contentful paint and load of index.html and of the largest page, opened from disk in
#      headless Chromium (Benchmarks/first-paint.py, median of 5). Target: first paint under 1 s.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then n=1000; else n=10000; fi
k=24 repeat=${REPEAT:-3}
header "gallery$([ $quick = 1 ] && echo ' (quick)') of $n photos"
bin=$(bench_bin)
bench_scratch gallery

cat > "$SCRATCH/import.yaml" <<'YAML'
steps:
  - exif-date: { fallback-to-file-time: true }
  - resize: { long-edge: 2048 }
  - heic-encode: { quality: 50, preset: ultrafast, output: "Photos/{yyyy}/{MM}/{id}.heic" }
  - thumbnail: { size: 200, output: "Thumbnails/{yyyy}/{MM}/{id}.jpg" }
YAML
# -- The library, made once.
pristine="$BENCH_OUT/inputs/gallery-library-$n"
if [ ! -f "$pristine/.done" ]; then
  rm -rf "$pristine"
  variants "$(base_photos 480x360 "$k")" "$k" "$BENCH_OUT/inputs/gallery-photos-$n" "$n" 2015-01-01 525
  measure import "$bin" run "$SCRATCH/import.yaml" --input "$BENCH_OUT/inputs/gallery-photos-$n" --library "$pristine" --jobs "$JOBS" --quiet
  echo "library: imported $n photos in $import_wall s: $(grep -m1 'found:' "$SCRATCH/import.log")"
  [ "$import_rc" = 0 ] || exit 1
  touch "$pristine/.done"
fi
lib="$SCRATCH/library"
cp -a "$pristine" "$lib"
echo "library: $(find "$lib/Photos" -name '*.heic' | wc -l) photos in Photos/, $(du -sh "$lib/Photos" | cut -f1)"
cat "$lib"/Photos/*/*/*.heic > /dev/null   # the same warm cache for both tools
gallery=("$bin" run "$ROOT/pipelines/gallery.yaml" --input "$lib/Photos" --library "$lib" --jobs "$JOBS" --quiet)

# -- 1. The gallery run, and vipsthumbnail making the same renditions.
measure first "${gallery[@]}"
echo "gallery run: $first_wall s, peak RSS $first_rss KB: $(grep -m1 'found:' "$SCRATCH/first.log")"
mkdir -p "$SCRATCH/reference"
measure reference sh -c "find '$lib/Photos' -name '*.heic' -print0 | xargs -0 -P '$JOBS' -n 50 vipsthumbnail -s 1024 -o '$SCRATCH/reference/%s.jpg[Q=82,strip]'"
echo "vipsthumbnail -s 1024 under xargs -P $JOBS (renditions only, no pages): $reference_wall s, peak RSS $reference_rss KB"
ratio=$(calc "$reference_wall / $first_wall")

# -- 2. The pages.
pages=("$lib"/gallery/*.html)
largest=$(ls -S "$lib"/gallery/*.html | grep -v index.html | head -1)
echo "pages: ${#pages[@]} ($(bytes_of "${pages[@]}") bytes in all); index.html $(bytes_of "$lib/gallery/index.html") bytes;" \
     "largest page $(basename "$largest") $(bytes_of "$largest") bytes, $(grep -o 'class="tile' "$largest" | wc -l) photos"

# -- 3. Nothing new.
walls=()
for i in $(seq 1 "$repeat"); do
  measure "again_$i" "${gallery[@]}"
  w=again_${i}_wall; walls+=("${!w}")
  echo "again $i: ${!w} s: $(grep -m1 'found:' "$SCRATCH/again_$i.log")"
done
again=$(median "${walls[@]}")

# -- 4. Twenty photos more, in one month.
variants "$(base_photos 480x360 "$k")" "$k" "$SCRATCH/more" 20 2019-06-03 60
measure more_import "$bin" run "$SCRATCH/import.yaml" --input "$SCRATCH/more" --library "$lib" --jobs "$JOBS" --quiet
touch "$SCRATCH/before-more"
measure more "${gallery[@]}"
echo "20 photos more: import $more_import_wall s; gallery $more_wall s: $(grep -m1 'found:' "$SCRATCH/more.log")"
echo "pages rewritten: $(find "$lib/gallery" -maxdepth 1 -name '*.html' -newer "$SCRATCH/before-more" -printf '%f ' | sort) of ${#pages[@]}"

# -- 5. First paint.
paint=$(python3 "$ROOT/Benchmarks/first-paint.py" --runs 5 "$lib/gallery/index.html" "$largest")
echo "$paint"
index_paint=$(echo "$paint" | head -1 | sed -E 's/.*first contentful paint ([0-9]+) ms.*/\1/')
page_paint=$(echo "$paint" | tail -1 | sed -E 's/.*first contentful paint ([0-9]+) ms.*/\1/')

echo
echo "gallery of $n photos: first run $first_wall s ($(calc "1000 * $first_wall / $n") ms a photo), vipsthumbnail renditions alone $reference_wall s;" \
     "nothing new $again s; 20 more $more_wall s"
summary "gallery: vipsthumbnail / darkroom, $n photos" "${ratio}x ($reference_wall s / $first_wall s)" "info" "-"
summary "gallery: run with nothing new" "$again s" "info" "-"
summary "gallery: first paint, index.html" "$index_paint ms" "<1000 ms" "$(met le "$index_paint" 1000)"
summary "gallery: first paint, largest page" "$page_paint ms" "<1000 ms" "$(met le "$page_paint" 1000)"
