#!/usr/bin/env bash
# Writes N photographic-looking 12 MP JPEGs (4000x3000) for the time-lapse benchmark, fast enough for 365:
# four "season" canvases (plasma x sky gradient, upscaled, plus fine Gaussian noise, so nothing is flat),
# and each day a crop of its season's canvas shifted a little (like a hand-held camera), so every photo
# differs in every pixel. Named yyyy-mm-dd_080000.jpg; EXIF DateTimeOriginal set from the name.
#   Benchmarks/timelapse-photos.sh DIR N
# Needs ImageMagick, libvips-tools and exiftool. Reuses DIR when it already holds N photos.
set -euo pipefail
dir=$1 n=$2
mkdir -p "$dir"
[ "$(find "$dir" -maxdepth 1 -name '*.jpg' | wc -l)" -eq "$n" ] && exit 0
find "$dir" -maxdepth 1 -name '*.jpg' -delete
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for season in 0 1 2 3; do
  convert -seed $((season + 11)) -size 1100x825 plasma:green-brown \( -size 1100x825 gradient:skyblue-white \) \
    -compose multiply -composite -depth 8 "$tmp/small.png"
  vips resize "$tmp/small.png" "$tmp/big.v" 4
  vips gaussnoise "$tmp/noise.v" 4400 3300 --mean 0 --sigma 12 --seed $((season + 1))
  vips add "$tmp/big.v" "$tmp/noise.v" "$tmp/sum.v"
  vips cast "$tmp/sum.v" "$tmp/season$season.v" uchar
done
for i in $(seq 0 $((n - 1))); do
  name=$(date -u -d "2024-01-01 + $i days" '+%Y-%m-%d_080000')
  vips extract_area "$tmp/season$((i * 4 / n)).v" "$dir/$name.jpg[Q=90]" $((i * 37 % 400)) $((i * 53 % 300)) 4000 3000
done
exiftool -q -overwrite_original '-DateTimeOriginal<filename' "$dir"
