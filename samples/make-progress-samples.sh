#!/usr/bin/env bash
# Regenerates the time-lapse samples in samples/progress/ (committed; run this only to change them).
# Needs ImageMagick, libvips-tools and exiftool. Every image is drawn here: nothing is copied from elsewhere.
#
# A potted plant photographed every morning for 30 days (2024-04-01 ... 2024-04-30) at 960x720:
# the stem grows, leaves appear, a flower opens. Like real progress photos:
# - exposure wobbles from day to day (what `deflicker` evens out);
# - file names are not in date order (the camera's counter was reset, and two files were renamed);
# - 2024-04-15 has two photos (morning and evening: what `one-per-day` chooses between);
# - one photo is stored sideways with EXIF Orientation 6 (it must come out upright);
# - two photos are Display P3 with an embedded profile (converted to sRGB, then BT.709, on purpose).
set -euo pipefail
cd "$(dirname "$0")"
out=progress
rm -rf "$out"; mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# plant DAY EXPOSURE LIGHT FILE: draw day DAY (0-based) of the plant.
plant() {
  local day=$1 exposure=$2 light=$3 file=$4
  local stem=$((60 + day * 14)) top leaves=() i y side dx
  top=$((540 - stem))
  for ((i = 0; i <= day / 3; i++)); do
    y=$((520 - (i + 1) * stem / (day / 3 + 2)))
    side=$(( i % 2 == 0 ? 1 : -1 ))
    dx=$((side * (22 + day)))
    leaves+=(-draw "ellipse $((480 + dx)),$y $((18 + day)),$((8 + day / 3)) 0,360")
  done
  local flower=()
  if ((day >= 24)); then
    local r=$(( (day - 23) * 7 ))
    flower=(-fill '#f06292' -draw "circle 480,$top 480,$((top - r))" -fill '#ffd54a' -draw "circle 480,$top 480,$((top - r / 3))")
  fi
  convert -size 960x720 gradient:"$light"-'#f3eadb' \
    -fill '#8d6e63' -draw "rectangle 0,600 960,720" \
    -fill '#5d4037' -draw "rectangle 0,600 960,606" \
    -stroke '#2e7d32' -strokewidth 9 -draw "line 480,540 480,$top" -stroke none \
    -fill '#43a047' "${leaves[@]}" "${flower[@]}" \
    -fill '#c1663e' -draw "polygon 400,520 560,520 540,640 420,640" \
    -fill '#a4512f' -draw "rectangle 392,510 568,532" \
    -attenuate 0.25 +noise Gaussian -modulate "$exposure" -quality 72 "$file"
}

exposures=(100 94 104 98 108 92 101 97 106 99 95 103 100 109 96 102 98 93 105 100 97 107 99 94 103 101 96 104 98 100)
for day in $(seq 0 29); do
  date=$(printf '2024:04:%02d' $((day + 1)))
  # File names: IMG_0301... for the first 12 days, then the counter restarts at IMG_0001.
  if ((day < 12)); then name=$(printf 'IMG_%04d.jpg' $((301 + day))); else name=$(printf 'IMG_%04d.jpg' $((day - 11))); fi
  plant "$day" "${exposures[$day]}" '#a7cbe8' "$tmp/day.jpg"
  mv "$tmp/day.jpg" "$out/$name"
  exiftool -q -overwrite_original -Make=Darkroom -Model="Progress Cam" \
    -DateTimeOriginal="$date 08:$(printf '%02d' $((day % 7 * 3))):00" -OffsetTimeOriginal="+02:00" "$out/$name"
done

# Two renamed files (names now sort before everything else, dates stay in the middle).
mv "$out/IMG_0309.jpg" "$out/best-day.jpg"
mv "$out/IMG_0006.jpg" "$out/after-watering.jpg"

# 2024-04-15, evening: a second photo of the same day, warmer light.
plant 14 96 '#f4b183' "$out/IMG_0004-evening.jpg"
exiftool -q -overwrite_original -Make=Darkroom -Model="Progress Cam" \
  -DateTimeOriginal="2024:04:15 19:40:00" -OffsetTimeOriginal="+02:00" "$out/IMG_0004-evening.jpg"

# Day 8 stored sideways: pixels turned 90 degrees anticlockwise, Orientation 6 turns them back.
f="$out/IMG_0308.jpg"
convert "$f" -rotate -90 -quality 72 "$tmp/turned.jpg"
exiftool -q -overwrite_original -tagsFromFile "$f" -all:all -Orientation#=6 "$tmp/turned.jpg"
mv "$tmp/turned.jpg" "$f"

# Days 20 and 21 in Display P3, profile embedded.
for f in "$out/IMG_0009.jpg" "$out/IMG_0010.jpg"; do
  vips icc_transform "$f" "$tmp/p3.jpg[Q=72]" p3 --embedded
  exiftool -q -overwrite_original -tagsFromFile "$f" -exif:all "$tmp/p3.jpg"
  mv "$tmp/p3.jpg" "$f"
done
du -sh "$out"
