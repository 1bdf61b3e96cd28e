#!/usr/bin/env bash
# What measuring a photo for near-duplicates (issue 22) adds to the import's thumbnail step.
#
#   Benchmarks/similarity-thumbnail-cost.sh [--quick]
#
# Inputs: generated 12 MP photographic JPEGs (make_photos, 4000x3000; 24 distinct pictures copied to
# 200 files, each with its own EXIF date; --quick: 6 pictures, 24 files), read once before timing.
# `similarity-bench thumbnail-cost` (release) makes each file's 200 px thumbnail as the thumbnail step
# does (shrink-on-load decode to sRGB, JPEG at quality 80, metadata stripped) in one process, first
# plain, then measured (the decode materialized, the 64 x 64 grey copy and its fingerprint, the grey
# copy at the thumbnail's own size and its sharpness: Plugins/Thumbnail/Thumbnail+Similarity.swift),
# interleaved ROUNDS times (2; --quick 1). Prints each pass's CPU seconds (every libvips thread) and
# the added CPU per photo. Target: the added CPU under 5 % of the plain thumbnail's.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then k=6 n=24 rounds=${ROUNDS:-1}; else k=24 n=200 rounds=${ROUNDS:-2}; fi
header "similarity-thumbnail-cost$([ $quick = 1 ] && echo ' (quick)')"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product similarity-bench >&2)
bin="$ROOT/.build/release/similarity-bench"
bench_scratch similarity-thumbnail-cost

in="$BENCH_OUT/inputs/thumbs-$n"
variants "$(base_photos 4000x3000 "$k")" "$k" "$in" "$n"
files=("$in"/V_*.jpg)
echo "inputs: ${#files[@]} generated 4000x3000 JPEGs ($k distinct pictures)"
cat "${files[@]}" > /dev/null

out=$("$bin" thumbnail-cost "$SCRATCH/thumbs" "$rounds" "${files[@]}")
echo "$out"
percents=$(echo "$out" | awk '$1 ~ /_added_percent:$/ {print $2}')
worst=$(printf '%s\n' $percents | sort -g | tail -1)
summary "similarity-thumbnail-cost added CPU" "$worst %" "< 5 %" "$(met le "$worst" 5)"
