#!/usr/bin/env bash
# Chooses heic-encode's x265 settings by measurement: CPU time, bytes and quality of every setting on
# the real camera photos of the corpus.
#
#   Benchmarks/heic-quality.sh [--quick]
#
# Inputs: the corpus's real camera and phone JPEGs over 5 MP (the first 12 of corpus_jpegs' 22 in
# manifest order, 8 makes; --quick: 4; PHOTOS=N for more),
# each resized to 2048 px in sRGB as the import does (vips thumbnail), saved as PNG: the pixels
# heic-encode receives. Every setting encodes them with heif-enc (libheif 1.15 and x265 3.5, the
# libraries Darkroom calls; `-p NAME=VALUE` passes libheif parameters, `x265:NAME` x265's own), on
# one thread as Darkroom's import runs each photo (x265 pools=none, frame-threads=1). Printed per
# setting: CPU seconds (user + sys of heif-enc, summed over the photos; the PNG read is ~2%), bytes
# (summed, and as a ratio to the baseline), mean SSIM (ffmpeg, RGB) and mean SSIMULACRA2
# (Benchmarks/image-quality.py, pip package ssimulacra2; slow, so only for the baseline and the settings
# within its bytes and SSIM, the others show -) of the decoded HEIC (vips) against its PNG;
# BUTTERAUGLI=1 adds the mean butteraugli distance (Debian's butteraugli; lower is better, slow).
# Then the pick: the setting with the least CPU time whose bytes are at most the baseline's (+1%) and whose
# SSIMULACRA2 and SSIM are at least the baseline's (minus 0.25 and 0.001: the noise between runs of
# equivalent settings). The baseline is the default before this sweep: preset medium, quality 50.
# SETTINGS replaces the list: one "label|params" a line (params: quality=Q and heif-enc -p values,
# comma-separated), the first the baseline.
source "$(dirname "$0")/common.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 -c 'import ssimulacra2' 2>/dev/null || pip install --quiet ssimulacra2 >&2
command -v heif-enc >/dev/null || { echo "needs heif-enc (libheif-examples)" >&2; exit 1; }

echo "== heic-quality$([ $quick = 1 ] && echo ' (quick)') =="
echo "date $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
max=${PHOTOS:-12}; [ $quick = 1 ] && max=${PHOTOS:-4}
n=0
while IFS= read -r path; do
  [ -f "$CORPUS/$path" ] || continue
  [ "$n" -lt "$max" ] || break
  n=$((n + 1)); vips thumbnail "$CORPUS/$path" "$work/$(printf %02d $n).png" 2048 --size down --export-profile srgb
done < <(awk -F'\t' 'NR > 1 && $4 == "JPEG" && $5 * $6 > 5000000 && $5 * $6 <= 50000000 && $12 !~ /CORRUPT|TRUNCATED|HUGE/ {print $1}' "$CORPUS/manifest.tsv")
refs=("$work"/[0-9][0-9].png)
[ "$n" -gt 0 ] || { echo "no corpus photos under $CORPUS" >&2; exit 1; }
echo "photos: $n real camera JPEGs from the corpus at 2048 px, $(vipsheader -f width "${refs[0]}")x$(vipsheader -f height "${refs[0]}") first"

# label|comma-separated heif-enc parameters. The first is the baseline.
default_settings=(
  "medium Q50 (baseline)|quality=50,preset=medium"
  "slow Q50|quality=50,preset=slow"
  "veryfast Q50|quality=50,preset=veryfast"
  "superfast Q50|quality=50,preset=superfast"
  "ultrafast Q50|quality=50,preset=ultrafast"
  "ultrafast Q46|quality=46,preset=ultrafast"
  "ultrafast Q50 sao|quality=50,preset=ultrafast,x265:sao=1"
  "ultrafast Q50 rdoq2|quality=50,preset=ultrafast,x265:rdoq-level=2"
  "ultrafast Q50 rd3|quality=50,preset=ultrafast,x265:rd=3"
  "ultrafast Q50 ctu64 min-cu8|quality=50,preset=ultrafast,x265:ctu=64,x265:min-cu-size=8"
  "ultrafast Q50 sao rdoq2|quality=50,preset=ultrafast,x265:sao=1,x265:rdoq-level=2"
  "superfast Q50 sao rdoq2|quality=50,preset=superfast,x265:sao=1,x265:rdoq-level=2"
  "veryfast Q50 rdoq2|quality=50,preset=veryfast,x265:rdoq-level=2"
)
if [ $quick = 1 ]; then default_settings=("${default_settings[@]:0:1}" "${default_settings[@]:4:1}" "${default_settings[@]:10:1}"); fi
if [ -n "${SETTINGS:-}" ]; then mapfile -t settings <<< "$SETTINGS"; else settings=("${default_settings[@]}"); fi

printf '%-34s %7s %11s %6s %7s %8s %s\n' setting "CPU s" bytes "xbase" SSIM SSIMU2 "$([ "${BUTTERAUGLI:-0}" = 1 ] && echo butteraugli)"
declare -a rows=()
base_bytes=""; base_s2=""; base_ssim=""
for setting in "${settings[@]}"; do
  label=${setting%%|*}; params=${setting#*|}
  args=(-p chroma=420 -p x265:pools=none -p x265:frame-threads=1)
  quality=50
  IFS=',' read -r -a kv <<< "$params"
  for p in "${kv[@]}"; do
    case $p in quality=*) quality=${p#quality=} ;; *) args+=(-p "$p") ;; esac
  done
  cpu=0; bytes=0; pairs=(); ssims=(); butter=()
  for ref in "${refs[@]}"; do
    out="$work/out.$(basename "$ref" .png)"
    /usr/bin/time -f "%U %S" -o "$work/time" heif-enc -q "$quality" "${args[@]}" "$ref" -o "$out.heic" >/dev/null 2>&1
    cpu=$(awk -v c="$cpu" '{print c + $1 + $2}' "$work/time")
    bytes=$((bytes + $(stat -c %s "$out.heic")))
    vips copy "$out.heic" "$out.png"
    ssims+=("$(ssim "$ref" "$out.png")"); pairs+=("$ref" "$out.png")
    [ "${BUTTERAUGLI:-0}" = 1 ] && butter+=("$(butteraugli "$ref" "$out.png" 2>/dev/null | tail -1)")
  done
  ssim=$(printf '%s\n' "${ssims[@]}" | awk '{s+=$1} END {printf "%.4f", s/NR}')
  # SSIMULACRA2 (slow: seconds a photo in Python) only where it can change the pick: the baseline and
  # the settings within its bytes and SSIM; '-' for the others.
  s2=-
  if [ -z "$base_bytes" ] || [ "$(echo "$bytes <= 1.01 * $base_bytes && $ssim >= $base_ssim - 0.001" | bc -l)" = 1 ]; then
    s2=$(python3 "$(dirname "$0")/image-quality.py" "${pairs[@]}" | awk '{s+=$1} END {printf "%.2f", s/NR}')
  fi
  ba=""; [ ${#butter[@]} -gt 0 ] && ba=$(printf '%s\n' "${butter[@]}" | awk '{s+=$1} END {printf "%.3f", s/NR}')
  [ -n "$base_bytes" ] || { base_bytes=$bytes; base_s2=$s2; base_ssim=$ssim; }
  printf '%-34s %7.2f %11d %5.2fx %7s %8s %s\n' "$label" "$cpu" "$bytes" "$(echo "$bytes / $base_bytes" | bc -l)" "$ssim" "$s2" "$ba"
  rows+=("$label|$cpu|$bytes|$ssim|$s2")
done

# The pick: least CPU at no more bytes (within 1%) and no less quality than the baseline.
best=""; best_cpu=""
for row in "${rows[@]}"; do
  IFS='|' read -r label cpu bytes ssim s2 <<< "$row"
  [ "$s2" != - ] || continue
  ok=$(echo "$bytes <= 1.01 * $base_bytes && $s2 >= $base_s2 - 0.25 && $ssim >= $base_ssim - 0.001" | bc -l)
  if [ "$ok" = 1 ] && { [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; }; then best=$label; best_cpu=$cpu; fi
done
base_cpu=$(echo "${rows[0]}" | cut -d'|' -f2)
echo
echo "pick (least CPU at bytes <= 1.01 x baseline, SSIMULACRA2 >= baseline - 0.25, SSIM >= baseline - 0.001): $best," \
  "$(printf '%.2f' "$(echo "$base_cpu / $best_cpu" | bc -l)")x less CPU than the baseline"
