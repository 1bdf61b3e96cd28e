#!/usr/bin/env bash
# Thumbnail throughput: Darkroom vs vipsthumbnail vs ImageMagick, on the same files in one run.
#
#   Benchmarks/thumbnails.sh [--quick]
#
# Inputs: generated 12 MP photographic JPEGs (make_photos, 4000x3000; K distinct pictures copied to N
# files, each with its own EXIF date so none is a duplicate) plus the real camera JPEGs over 5 MP from
# ${DARKROOM_CORPUS:-../shared/corpus}. Full: K=24, N=200; --quick: K=6, N=24.
#
# Every tool makes a 200 px (long edge) JPEG at quality 80, metadata stripped, using every core:
#   darkroom      a pipeline of exif-date + thumbnail { size: 200, output: "{name}.jpg" }, --jobs $(nproc)
#                 (thumbnail needs a capture date even when its template has no date field)
#   vips-1        one vipsthumbnail process over all files (libvips threads inside one image)
#   vips-P        xargs -P $(nproc) vipsthumbnail, 4 files per process, VIPS_CONCURRENCY=1
#   magick-P      xargs -P $(nproc) convert IN -thumbnail 200x200 -quality 80 OUT, MAGICK_THREAD_LIMIT=1
#   magick-hint-P the same with -define jpeg:size=400x400 (shrink-on-load for ImageMagick; informational)
#   darkroom-exif-date-only  the same darkroom run without the thumbnail step: hashing, EXIF, catalog
# The files are read once before timing (page cache warm for everyone). Each tool runs ROUNDS times
# (full 3, quick 1), interleaved, and its fastest round counts. Targets, in images/second: darkroom
# >= 1.5x one vipsthumbnail process (vips-1, issue 13's goal); the stricter >= 1.5x the faster of
# vips-1 and vips-P; and >= 4x magick-P.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then k=6 n=24 rounds=${ROUNDS:-1}; else k=24 n=200 rounds=${ROUNDS:-3}; fi
header "thumbnails$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
IM=$(imagemagick || true)
bench_scratch thumbnails

in="$BENCH_OUT/inputs/thumbs-$n"
variants "$(base_photos 4000x3000 "$k")" "$k" "$in" "$n"
ncorpus=$(corpus_jpegs "$in")
files=("$in"/*.jpg); count=${#files[@]}
bytes_in=$(bytes_of "${files[@]}")
echo "inputs: $n generated 4000x3000 JPEGs ($k distinct pictures) + $ncorpus corpus JPEGs over 5 MP = $count files, $bytes_in bytes"
cat "${files[@]}" > /dev/null

cat > "$SCRATCH/thumbs.yaml" <<'YAML'
steps:
  - exif-date
  - thumbnail: { size: 200, quality: 80, output: "{name}.jpg" }
YAML
printf 'steps:\n  - exif-date\n' > "$SCRATCH/exif-only.yaml"
"$bin" validate "$SCRATCH/thumbs.yaml" > /dev/null

declare -A best bytes rssk
# keep NAME WALL: remembers the fastest round; succeeds when this one is it.
keep() { if [ -z "${best[$1]:-}" ] || le "$2" "${best[$1]}"; then best[$1]=$2; else return 1; fi; }
out_dir() { rm -rf "$SCRATCH/out-$1"; mkdir -p "$SCRATCH/out-$1"; echo "$SCRATCH/out-$1"; }
tools=(darkroom vips_P vips_1)
[ -n "$IM" ] && tools+=(magick_P magick_hint_P)
tools+=(darkroom_exif_date_only)

for r in $(seq 1 "$rounds"); do
  for t in "${tools[@]}"; do
    o=$(out_dir "$t")
    case $t in
      darkroom) measure $t "$bin" run "$SCRATCH/thumbs.yaml" --input "$in" --library "$o" --jobs "$JOBS" ;;
      darkroom_exif_date_only) measure $t "$bin" run "$SCRATCH/exif-only.yaml" --input "$in" --library "$o" --jobs "$JOBS" ;;
      vips_1) measure $t vipsthumbnail -s 200 -o "$o/%s.jpg[Q=80,strip]" "${files[@]}" ;;
      vips_P) measure $t env VIPS_CONCURRENCY=1 xargs -0 -P "$JOBS" -n 4 vipsthumbnail -s 200 -o "$o/%s.jpg[Q=80,strip]" \
                < <(printf '%s\0' "${files[@]}") ;;
      magick_P) measure $t env MAGICK_THREAD_LIMIT=1 xargs -0 -P "$JOBS" -I{} sh -c 'exec "$0" "$1" -thumbnail 200x200 -quality 80 "$2/${1##*/}"' "$IM" {} "$o" \
                < <(printf '%s\0' "${files[@]}") ;;
      magick_hint_P) measure $t env MAGICK_THREAD_LIMIT=1 xargs -0 -P "$JOBS" -I{} sh -c 'exec "$0" -define jpeg:size=400x400 "$1" -thumbnail 200x200 -quality 80 "$2/${1##*/}"' "$IM" {} "$o" \
                < <(printf '%s\0' "${files[@]}") ;;
    esac
    w=${t}_wall; rc=${t}_rc; rss=${t}_rss
    outs=$(find "$o" -name '*.jpg' -not -path '*/.darkroom/*')
    made=$(echo "$outs" | grep -c . || true); b=$(bytes_of $outs)
    [ "${!rc}" = 0 ] || echo "  ($t exited ${!rc}: see $SCRATCH/$t.log)"
    [ "$t" = darkroom_exif_date_only ] || [ "$made" = "$count" ] || echo "  warning: $t made $made thumbnails of $count"
    echo "  round $r $t: ${!w} s, peak RSS ${!rss} KB, $made thumbnails, $b bytes"
    if keep "$t" "${!w}"; then bytes[$t]=$b; rssk[$t]=${!rss}; fi
  done
done

# Check darkroom's thumbnails are what was asked for: long edge 200.
sample=$(find "$SCRATCH/out-darkroom" -maxdepth 1 -name 'V_00001.jpg')
[ -n "$sample" ] && echo "darkroom V_00001.jpg: $(vipsheader -f width "$sample")x$(vipsheader -f height "$sample"); vips-P: $(vipsheader -f width "$SCRATCH/out-vips_P/V_00001.jpg")x$(vipsheader -f height "$SCRATCH/out-vips_P/V_00001.jpg")"

echo
printf '%-24s %9s %9s %12s %12s\n' tool "wall s" "images/s" "out bytes" "peak RSS KB"
for t in "${tools[@]}"; do
  printf '%-24s %9.2f %9.1f %12s %12s\n' "$t" "${best[$t]}" "$(calc "$count / ${best[$t]}")" "${bytes[$t]}" "${rssk[$t]}"
done
dr_ips=$(calc "$count / ${best[darkroom]}")
r_vips=$(calc "${best[vips_P]} / ${best[darkroom]}")
r_vips1=$(calc "${best[vips_1]} / ${best[darkroom]}")
# The headline compares with vipsthumbnail's better way of using the cores.
if le "${best[vips_P]}" "${best[vips_1]}"; then r_best=$r_vips best_way="xargs -P $JOBS"; else r_best=$r_vips1 best_way="one process"; fi
echo
echo "darkroom / vipsthumbnail: ${r_vips}x against xargs -P $JOBS, ${r_vips1}x against one process"
echo "darkroom overhead without the thumbnail step (hash, EXIF date, catalog): ${best[darkroom_exif_date_only]} s of ${best[darkroom]} s"
summary "thumbnails: darkroom images/s" "$dr_ips" "-" "-"
summary "thumbnails: darkroom / one vipsthumbnail" "${r_vips1}x" ">=1.5x" "$(met ge "$r_vips1" 1.5)"
summary "thumbnails: darkroom / vipsthumbnail" "${r_best}x (vs $best_way)" ">=1.5x" "$(met ge "$r_best" 1.5)"
if [ -n "$IM" ]; then
  r_im=$(calc "${best[magick_P]} / ${best[darkroom]}")
  r_imh=$(calc "${best[magick_hint_P]} / ${best[darkroom]}")
  echo "darkroom / ImageMagick -thumbnail (xargs -P $JOBS): ${r_im}x   (with -define jpeg:size: ${r_imh}x)"
  summary "thumbnails: darkroom / ImageMagick" "${r_im}x" ">=4x" "$(met ge "$r_im" 4)"
else
  echo "ImageMagick not installed (apt-get install imagemagick): no ImageMagick figures"
  summary "thumbnails: darkroom / ImageMagick" "n/a" ">=4x" "not run"
fi
