#!/usr/bin/env bash
# Camera-roll import: Darkroom's pipelines/import-camera-roll.yaml vs the same work with the vips CLI,
# at equal output quality and file size, on the same files in one run.
#
#   Benchmarks/import.sh [--quick]
#
# Inputs: N generated 12 MP JPEGs (4000x3000, K distinct pictures, each copy with its own EXIF date)
# plus C real camera JPEGs over 5 MP from the corpus. Full: K=8, N=24, all corpus JPEGs (22); --quick:
# K=4, N=4, C=2.
#
#   darkroom  darkroom run pipelines/import-camera-roll.yaml --input IN --library LIB (--jobs $(nproc)):
#             HEIC 2048 px at the pipeline's quality and x265 preset (60 or 50, medium), 8 bit, plus a
#             200 px JPEG Q80
#   vips      per photo, xargs -P $(nproc):  vipsthumbnail IN -s 2048 -o OUT.heic[Q=q,bitdepth=8]
#                                            vipsthumbnail IN -s 200 -o OUT_tn.jpg[Q=80,strip]
#             (libvips 8.14 heifsave always uses x265's default preset, slow; bitdepth=8 as Darkroom's,
#             the default would be 12)
# Equal output: SSIM of each HEIC, decoded, against a 2048 px reference made by `vips thumbnail` from the
# original (mean over photos), and total bytes. vips is timed over all photos at Darkroom's nominal
# quality; then Qs are tried on the first CAL photos (full: 4, quick: 2) and the one whose HEIC bytes are
# closest to Darkroom's on those photos, and the one closest in SSIM, are timed over all photos too if
# they differ from it. The ratio at equal bytes is the headline. Target: darkroom >= 3x vips.
# Goals: darkroom >= 3x (wall, --jobs $(nproc) against xargs -P $(nproc)) at HEIC bytes <= 1.1x and mean
# SSIM >= the vips CLI's - 0.005. CPU seconds (user + sys) are printed beside wall seconds: on a shared
# machine they move less.
# Last, darkroom runs shorter pipelines over the same photos to show where its time goes, and the floor:
# x265 alone (its CLI, on a .y4m of the same 2048 px pixels made beforehand, untimed) at the pipeline's
# preset, CRF (100 - Q) / 2 and the tuned options of Plugins/HEICEncode/HEICTuning.swift, one thread a
# photo as Darkroom runs it, with the options libheif 1.15's x265 plugin sets on every encode whatever the
# preset (tune ssim, the mainstillpicture profile, full range, aq-mode 1, psy-rd 1, psy-rdoq 1, rect, amp,
# limit-modes 0, limit-refs 0, rskip 0; a full-range .y4m): without them x265 made 3.8 MB where libheif
# made 17.6 MB of the same pixels; darkroom's encoder share (its CPU minus that of the same pipeline
# without heic-encode) should be within 1.3x of it.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
pipeline="$ROOT/pipelines/import-camera-roll.yaml"
# The pipeline's HEIC quality and preset (vips is run at the same nominal Q, then calibrated around it).
dq=$(awk '/heic-encode/ {f = 1} f && /quality:/ {print $2; exit}' "$pipeline"); dq=${dq:-60}
dp=$(awk '/heic-encode/ {f = 1} f && /preset:/ {print $2; exit}' "$pipeline"); dp=${dp:-medium}
if [ $quick = 1 ]; then k=4 n=4 ncorp=2 cal=2 qs=($((dq - 5)) "$dq" $((dq + 5)))
else k=8 n=24 ncorp=1000 cal=4 qs=($((dq - 10)) $((dq - 5)) "$dq" $((dq + 5)) $((dq + 10))); fi
header "import$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch import

in="$SCRATCH/in"
camera_roll "$in" import "$n" "$k"
c=$(corpus_jpegs "$in" "$ncorp")
files=("$in"/*.jpg); count=${#files[@]}
echo "inputs: $n generated 4000x3000 JPEGs + $c corpus JPEGs = $count photos, $(bytes_of "${files[@]}") bytes"
cat "${files[@]}" > /dev/null

# Darkroom.
measure darkroom "$bin" run "$pipeline" --input "$in" --library "$SCRATCH/lib" --jobs "$JOBS"
echo "darkroom: $(grep -m1 'found:' "$SCRATCH/darkroom.log" || tail -1 "$SCRATCH/darkroom.log")"

# References: 2048 px, upright, as PNG.
mkdir -p "$SCRATCH/ref" "$SCRATCH/dec"
for f in "${files[@]}"; do vips thumbnail "$f" "$SCRATCH/ref/$(basename "${f%.*}").png" 2048 --size down; done

# ssim_of HEIC STEM: SSIM of a HEIC against the reference of the photo STEM (sizes must agree).
ssim_of() {
  local dec="$SCRATCH/dec/$2.png" ref="$SCRATCH/ref/$2.png"
  vips copy "$1" "$dec"
  local a b; a=$(vipsheader -f width "$dec")x$(vipsheader -f height "$dec"); b=$(vipsheader -f width "$ref")x$(vipsheader -f height "$ref")
  if [ "$a" != "$b" ]; then echo "  note: $2 is $a, reference $b: reference resized to match" >&2
    vips resize "$ref" "$SCRATCH/dec/$2.ref.png" "$(calc "$(vipsheader -f width "$dec") / $(vipsheader -f width "$ref")")"; ref="$SCRATCH/dec/$2.ref.png"; fi
  ssim "$ref" "$dec"
}

# Darkroom's outputs, per photo, from its catalog.
declare -A dr_heic dr_ssim
while IFS=$'\t' read -r orig path; do dr_heic[$(basename "${orig%.*}")]="$SCRATCH/lib/$path"; done < <(heic_map "$SCRATCH/lib")
[ "${#dr_heic[@]}" = "$count" ] || echo "warning: darkroom's catalog lists ${#dr_heic[@]} HEICs for $count photos"
for stem in "${!dr_heic[@]}"; do dr_ssim[$stem]=$(ssim_of "${dr_heic[$stem]}" "$stem"); done
dr_heic_bytes=$(bytes_of $(find "$SCRATCH/lib/Photos" -name '*.heic'))
dr_thumb_bytes=$(bytes_of $(find "$SCRATCH/lib/Thumbnails" -name '*.jpg'))
dr_mean_ssim=$(mean "${dr_ssim[@]}")

# vips_run NAME Q OUT FILES...: measures the vips CLI's import of FILES into OUT, every core.
vips_run() {
  local name=$1 q=$2 out=$3; shift 3
  mkdir -p "$out"
  measure "$name" xargs -0 -P "$JOBS" -I{} sh -c \
    'vipsthumbnail "$1" -s 2048 -o "$2/%s.heic[Q=$3,bitdepth=8]" && vipsthumbnail "$1" -s 200 -o "$2/%s_tn.jpg[Q=80,strip]"' \
    _ {} "$out" "$q" < <(printf '%s\0' "$@")
}

# The vips CLI at Darkroom's nominal quality over every photo, timed.
vips_run vips_$dq "$dq" "$SCRATCH/vips-$dq" "${files[@]}"

# Calibration on the first CAL photos: the vips Q whose HEIC bytes (and, separately, SSIM) are closest to
# Darkroom's on the same photos. Darkroom's own Q reuses the timed run's files.
calfiles=("${files[@]:0:$cal}")
dr_cal_bytes=0; dr_cal_ssim=()
for f in "${calfiles[@]}"; do s=$(basename "${f%.*}")
  dr_cal_bytes=$((dr_cal_bytes + $(stat -c %s "${dr_heic[$s]}"))); dr_cal_ssim+=("${dr_ssim[$s]}"); done
dr_cal_ssim=$(mean "${dr_cal_ssim[@]}")
echo
echo "calibration on $cal photos: darkroom HEIC $dr_cal_bytes bytes, SSIM $dr_cal_ssim"
printf '  %-6s %12s %8s %8s\n' "vips Q" "HEIC bytes" SSIM "wall s"
best_q=""; best_db=""; ssim_q=""; best_ds=""
for q in "${qs[@]}"; do
  o="$SCRATCH/vips-$q"; w="-"
  if [ "$q" != "$dq" ]; then o="$SCRATCH/cal-$q"; vips_run cal_$q "$q" "$o" "${calfiles[@]}"; w=cal_${q}_wall; w=${!w}; fi
  b=0; t=()
  for f in "${calfiles[@]}"; do s=$(basename "${f%.*}"); b=$((b + $(stat -c %s "$o/$s.heic"))); t+=("$(ssim_of "$o/$s.heic" "$s")"); done
  t=$(mean "${t[@]}")
  printf '  %-6s %12s %8s %8s\n' "$q" "$b" "$t" "$w"
  db=$(calc "sqrt(($b - $dr_cal_bytes)^2)"); ds=$(echo "sqrt(($t - $dr_cal_ssim)^2)" | bc -l)
  if [ -z "$best_db" ] || le "$db" "$best_db"; then best_db=$db; best_q=$q; fi
  if [ -z "$best_ds" ] || le "$ds" "$best_ds"; then best_ds=$ds; ssim_q=$q; fi
done
echo "vips Q matching darkroom's bytes: $best_q; matching its SSIM: $ssim_q"

# Timed runs over every photo at the byte-matched Q and the SSIM-matched Q (Darkroom's Q is done already).
timed_qs=("$dq"); for q in "$best_q" "$ssim_q"; do [[ " ${timed_qs[*]} " == *" $q "* ]] || timed_qs+=("$q"); done
echo
printf '%-22s %8s %8s %12s %12s %8s %9s %12s\n' run "wall s" "CPU s" "HEIC bytes" "thumb bytes" "SSIM" "photos/s" "peak RSS KB"
printf '%-22s %8s %8s %12s %12s %8s %9.2f %12s\n' "darkroom (Q$dq $dp)" "$darkroom_wall" "$darkroom_cpu" "$dr_heic_bytes" "$dr_thumb_bytes" "$dr_mean_ssim" \
  "$(calc "$count / $darkroom_wall")" "$darkroom_rss"
for q in "${timed_qs[@]}"; do
  o="$SCRATCH/vips-$q"
  [ "$q" = "$dq" ] || vips_run vips_$q "$q" "$o" "${files[@]}"
  w=vips_${q}_wall; r=vips_${q}_rss; c=vips_${q}_cpu
  t=(); for f in "${files[@]}"; do s=$(basename "${f%.*}"); t+=("$(ssim_of "$o/$s.heic" "$s")"); done
  printf '%-22s %8s %8s %12s %12s %8s %9.2f %12s\n' "vips CLI (Q$q slow)" "${!w}" "${!c}" "$(bytes_of "$o"/*.heic)" "$(bytes_of "$o"/*_tn.jpg)" "$(mean "${t[@]}")" \
    "$(calc "$count / ${!w}")" "${!r}"
  printf -v "ratio_$q" '%s' "$(calc "${!w} / $darkroom_wall")"
  printf -v "cpuratio_$q" '%s' "$(calc "${!c} / $darkroom_cpu")"
  printf -v "bytes_$q" '%s' "$(bytes_of "$o"/*.heic)"; printf -v "ssim_$q" '%s' "$(mean "${t[@]}")"
done
echo "(peak RSS of the vips CLI is that of one vipsthumbnail process; darkroom's is the whole run)"

# Where darkroom's time goes: the same photos through shorter pipelines.
printf 'steps:\n  - exif-date\n' > "$SCRATCH/p-exif.yaml"
printf 'steps:\n  - exif-date\n  - resize: { long-edge: 2048 }\n' > "$SCRATCH/p-resize.yaml"
printf 'steps:\n  - exif-date\n  - thumbnail: { size: 200, output: "{name}.jpg" }\n' > "$SCRATCH/p-thumb.yaml"
grep -v -e 'heic-encode:' -e 'quality:' -e 'preset:' -e '{id}.heic' "$pipeline" > "$SCRATCH/p-noheic.yaml"
for p in exif resize thumb noheic; do measure "split_$p" "$bin" run "$SCRATCH/p-$p.yaml" --input "$in" --library "$SCRATCH/lib-$p" --jobs "$JOBS"; done
echo
echo "darkroom time split (wall s, same photos, --jobs $JOBS): whole import $darkroom_wall; exif-date only $split_exif_wall;" \
  "+ decode and resize to 2048 $split_resize_wall; exif-date + 200 px thumbnail $split_thumb_wall;" \
  "so HEIC encoding is about $(calc "$darkroom_wall - $split_resize_wall - ($split_thumb_wall - $split_exif_wall)") s ($(calc "100 * ($darkroom_wall - $split_resize_wall - ($split_thumb_wall - $split_exif_wall)) / $darkroom_wall")%)"

# The floor: x265 alone on the same pixels, at the same settings, one thread a photo.
tuning=$(grep -o '"[a-z-]*": *"[^"]*"' "$ROOT/Plugins/HEICEncode/HEICTuning.swift" | tr -d '" ' | tr ':' ' ' || true)
x265_args=(--preset "$dp" --tune ssim --crf "$(calc "(100 - $dq) / 2")" --pools none --frame-threads 1 --no-info --log-level error
  --profile mainstillpicture --range full --aq-mode 1 --psy-rd 1.0 --psy-rdoq 1.0 --rect --amp --no-limit-modes --limit-refs 0 --rskip 0)
while read -r k v; do [ -n "$k" ] || continue
  case $v in 1) x265_args+=("--$k") ;; 0) x265_args+=("--no-$k") ;; *) x265_args+=("--$k" "$v") ;; esac; done <<< "$tuning"
mkdir -p "$SCRATCH/y4m"
for f in "$SCRATCH"/ref/*.png; do ffmpeg -v error -i "$f" -vf "crop=trunc(iw/2)*2:trunc(ih/2)*2,scale=out_range=full:out_color_matrix=bt601" -pix_fmt yuv420p -color_range pc -strict -1 "$SCRATCH/y4m/$(basename "${f%.png}").y4m"; done
measure x265_alone sh -c 'for f in "$@"; do x265 "$f" -o "${f%.y4m}.hevc" '"${x265_args[*]}"'; done' _ "$SCRATCH"/y4m/*.y4m
share=$(calc "$darkroom_cpu - $split_noheic_cpu")
echo "x265 alone (${x265_args[*]}): $x265_alone_cpu CPU s for $count photos, $(bytes_of "$SCRATCH"/y4m/*.hevc) bytes of HEVC;" \
  "darkroom's encoder share: $darkroom_cpu - $split_noheic_cpu (the pipeline without heic-encode) = $share CPU s, $(calc "$share / $x265_alone_cpu")x x265 alone"

r=ratio_$best_q; r2=ratio_$ssim_q; rc=cpuratio_$best_q; vb=bytes_$best_q; vs=ssim_$best_q
echo
echo "darkroom / vips CLI at equal bytes (vips Q$best_q): ${!r}x wall, ${!rc}x CPU; at equal SSIM (vips Q$ssim_q): ${!r2}x; at equal nominal Q$dq: $(r3=ratio_$dq; echo "${!r3}")x"
echo "at vips Q$best_q: darkroom's HEIC bytes $(calc "$dr_heic_bytes / ${!vb}")x the vips CLI's (goal <= 1.1x), SSIM $dr_mean_ssim against ${!vs} (goal >= $(calc "${!vs} - 0.005"))"
summary "import: darkroom / vips CLI" "${!r}x (vips Q$best_q)" ">=3x" "$(met ge "${!r}" 3)"
summary "import: HEIC bytes / vips CLI's" "$(calc "$dr_heic_bytes / ${!vb}")x" "<=1.1x" "$(met le "$(calc "$dr_heic_bytes / ${!vb}")" 1.1)"
summary "import: SSIM vs vips CLI's" "$dr_mean_ssim vs ${!vs}" ">=-0.005" "$(met ge "$dr_mean_ssim" "$(calc "${!vs} - 0.005")")"
summary "import: encoder share / x265 alone" "$(calc "$share / $x265_alone_cpu")x" "<=1.3x" "$(met le "$(calc "$share / $x265_alone_cpu")" 1.3)"
