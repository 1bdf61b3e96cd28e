#!/usr/bin/env bash
# Near-duplicates (issue 22): DarkroomSimilarity's grouping speed and its distances over the corpus.
#
#   Benchmarks/similarity.sh [--quick]
#
# 1. Grouping (similarity-bench grouping, release): 100,000 random fingerprints, one in ten a planted
#    copy of an earlier one (hashes 0 to 8 bits away). The time to group them (SimilarityFinder.report:
#    the multi-index hash join, the checks, components and stars; median of 3 runs), the join's CPU
#    seconds, the planted pairs grouped; and, on the first 10,000, the join against comparing all
#    pairs (the baseline): both times and whether they find the same pairs. Target: under a second.
# 2. Distances (similarity-bench distances; skipped with --quick): every decodable corpus photo and 12
#    copies of each made with the vips CLI: resized to 50 % and 25 % (r50, r25), re-saved at quality
#    60, 75, 90 (q60, q75, q90), stripped after turning upright (strip), cropped 1, 3, 5 % of each side
#    centred (cc1, cc3, cc5) and from the top-left corner (ct1, ct3, ct5). Prints each kind's distances
#    to its original (perceptual hash of the closest framing, detail hash, the whole-frame hash alone)
#    and the copies grouped; then every pair of different photos (the files Benchmarks/
#    similarity-same-photos.txt lists as one photo, and pixel-identical files, excepted): the histogram
#    of their distances and the nearest ones, with what keeps each apart. Targets: no different photos
#    grouped; at least 99 % of copies grouped. The copies (about 1 GB) go to bench-out/tmp and are
#    removed at exit (KEEP=1 keeps them).
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
header "similarity$([ $quick = 1 ] && echo ' (quick)')"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product similarity-bench >&2)
bin="$ROOT/.build/release/similarity-bench"

grouping=$("$bin" grouping --photos 100000 --brute 10000 --runs 3)
echo "$grouping"
field() { echo "$1" | awk -v k="$2:" '$1 == k {print $2; exit}'; }
seconds=$(field "$grouping" grouping_seconds_median)
summary "similarity: group 100,000 photos" "${seconds} s" "< 1 s" "$(met le "$seconds" 1)"
summary "similarity: planted copies grouped" "$(field "$grouping" planted_pairs_grouped) of $(field "$grouping" planted_pairs)" "all" \
  "$(met [ "$(field "$grouping" planted_pairs_grouped)" = "$(field "$grouping" planted_pairs)" ])"
summary "similarity: join vs all pairs (10,000)" "$(calc "$(field "$grouping" brute_all_pairs_seconds) / $(field "$grouping" brute_index_seconds)")x, agrees: $(field "$grouping" brute_index_agrees)" "same pairs" \
  "$(met [ "$(field "$grouping" brute_index_agrees)" = yes ])"
[ $quick = 1 ] && exit 0

[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS: distances skipped" >&2; exit 0; }
bench_scratch similarity
copies="$SCRATCH/copies"; mkdir -p "$copies"
# Decodable photos: the manifest's, less the broken ones.
awk -F'\t' 'NR > 1 && $12 !~ /HUGE|CORRUPT|TRUNCATED|UNSUPPORTED|METADATA-ONLY/ && $4 != "" {print NR "\t'"$CORPUS"'/" $1}' \
  "$CORPUS/manifest.tsv" > "$SCRATCH/originals.tsv"

# make_copies INDEX PATH: the 12 copies of one photo. A transparent photo is flattened onto white first (as the
# fingerprint does), not left to jpegsave; crops are saved without metadata, or their EXIF orientation would turn
# the upright pixels again.
make_copies() {
  local i=$1 src=$2 d=$copies t; t=$(mktemp -d "$SCRATCH/one.XXXXXX")
  local bands interpretation; bands=$(vipsheader -f bands "$src" 2>/dev/null) || { rm -rf "$t"; return 0; }
  interpretation=$(vipsheader -f interpretation "$src")
  if [ "$interpretation" != "((VipsInterpretation) VIPS_INTERPRETATION_CMYK)" ] && { [ "$bands" = 2 ] || [ "$bands" = 4 ]; }; then
    vips flatten "$src" "$t/flat.v" --background 255 && src="$t/flat.v"
  fi
  vips resize "$src" "$d/$i.r50.jpg[Q=85]" 0.5 2>/dev/null
  vips resize "$src" "$d/$i.r25.jpg[Q=85]" 0.25 2>/dev/null
  for q in 60 75 90; do vips copy "$src" "$d/$i.q$q.jpg[Q=$q]" 2>/dev/null; done
  if vips autorot "$src" "$t/up.v" 2>/dev/null; then
    vips copy "$t/up.v" "$d/$i.strip.jpg[strip,Q=90]"
    local w h; w=$(vipsheader -f width "$t/up.v"); h=$(vipsheader -f height "$t/up.v")
    for p in 1 3 5; do
      local cw=$(( w * (100 - p) / 100 )) ch=$(( h * (100 - p) / 100 ))
      vips crop "$t/up.v" "$d/$i.cc$p.jpg[strip,Q=90]" $(( (w - cw) / 2 )) $(( (h - ch) / 2 )) $cw $ch
      vips crop "$t/up.v" "$d/$i.ct$p.jpg[strip,Q=90]" $(( w - cw )) $(( h - ch )) $cw $ch
    done
  fi
  rm -rf "$t"
}
export -f make_copies; export copies SCRATCH
start=$(date +%s)
tr '\t' '\n' < "$SCRATCH/originals.tsv" | tr '\n' '\0' | xargs -0 -n2 -P "$JOBS" bash -c 'make_copies "$0" "$1"'
echo "copies: $(ls "$copies" | wc -l) made in $(( $(date +%s) - start )) s"

distances=$("$bin" distances "$SCRATCH/originals.tsv" "$copies" "$ROOT/Benchmarks/similarity-same-photos.txt" | sed "s|$CORPUS/||g")
echo "$distances"
grouped=$(field "$distances" copies_grouped); total=$(field "$distances" copies)
wrong=$(field "$distances" different_grouped)
summary "similarity: different corpus photos grouped" "$wrong of $(field "$distances" different_pairs) pairs" "0" "$(met [ "$wrong" = 0 ])"
summary "similarity: corpus copies grouped" "$grouped of $total" ">= 99 %" "$(met ge "$(calc "$grouped / $total")" 0.99)"
