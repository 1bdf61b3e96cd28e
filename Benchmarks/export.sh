#!/usr/bin/env bash
# Exporting HEICs as JPEGs to share (issue 24): 2048 px long edge, q85, upright, sRGB, no location.
#
#   Benchmarks/export.sh [--quick]
#
# Inputs: 100 HEICs (--quick: 20) made once from the corpus' camera JPEGs over 5 MP with
# heif-enc (x265 preset ultrafast, q50: the inputs' encoding is not what is measured), copied
# round-robin, each given a GPS position and a city with exiftool (photos whose EXIF exiftool
# cannot rewrite are left out), kept in bench-out/inputs.
#
# Darkroom's side: `darkroom export` does not exist yet, so this runs the not-shipped
# export-benchmark (release), which makes the same calls the command will: Image.forSharing,
# ExifBlob.forSharing, XMPPacket.removingLocation, writeSharedJPEG; one file at a time, in one
# process. The reference the issue names: per file, `vips copy IN.heic OUT.jpg[Q=85]` then
# `exiftool -m -overwrite_original -gps:all= OUT.jpg` (-m: a maker note exiftool finds odd is no
# reason to stop), one file at a time. For comparison only, a fairer one: `vipsthumbnail -s 2048
# --export-profile srgb` then the same exiftool. Every output is checked for GPS afterwards
# (exiftool -if '$gps:all'). Then both again with $JOBS files at a time (export-benchmark --jobs,
# xargs -P). Target: Darkroom at least 2x faster than the named reference, one file at a time; the
# issue's figure with files side by side (as the command's runner will run them) is printed too.
# EXPORT_BENCHMARK=path uses an export-benchmark built elsewhere.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
n=$([ $quick = 1 ] && echo 20 || echo 100)
header "export$([ $quick = 1 ] && echo ' (quick)')"
if [ -n "${EXPORT_BENCHMARK:-}" ]; then bin=$EXPORT_BENCHMARK; else
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --product export-benchmark >&2); bin="$ROOT/.build/release/export-benchmark"
fi
bench_scratch export

heics="$BENCH_OUT/inputs/export-heic-$n"
if [ "$(find "$heics" -name '*.heic' 2>/dev/null | wc -l)" != "$n" ]; then
  rm -rf "$heics"; mkdir -p "$heics/base"
  k=$(corpus_jpegs "$SCRATCH/jpegs" 20)
  [ "$k" -gt 0 ] || { echo "no corpus JPEGs: set DARKROOM_CORPUS" >&2; exit 1; }
  for j in "$SCRATCH"/jpegs/*.jpg; do
    heic="$heics/base/$(basename "$j" .jpg).heic"
    heif-enc -q 50 -p preset=ultrafast -o "$heic" "$j" >/dev/null
    # A position and a city to remove; photos whose EXIF exiftool cannot rewrite are left out.
    exiftool -q -q -m -overwrite_original -GPSLatitude=48.8582 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E \
      -XMP-photoshop:City=Paris "$heic" 2>/dev/null || rm -f "$heic"
  done
  bases=("$heics"/base/*.heic)
  for i in $(seq 1 "$n"); do cp "${bases[$(( (i - 1) % ${#bases[@]} ))]}" "$(printf '%s/IMG_%04d.heic' "$heics" "$i")"; done
  rm -rf "$heics/base"
fi
files=("$heics"/*.heic)
echo "inputs: ${#files[@]} HEICs, $(vipsheader "${files[0]}" | cut -d' ' -f2), $(( $(bytes_of "${files[@]}") / 1000000 )) MB, $( (exiftool -q -q -m -if '$gps:GPSLatitude' -p x "${files[@]}" || true) | wc -l) with GPS"
cat "${files[@]}" > /dev/null

# The reference: one file at a time, two processes each (REFERENCE OUTDIR copy|thumbnail FILE...).
cat > "$SCRATCH/reference.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
dir=$1 mode=$2; shift 2; mkdir -p "$dir"
for f in "$@"; do
  out="$dir/$(basename "$f" .heic).jpg"
  if [ "$mode" = copy ]; then vips copy "$f" "$out[Q=85]"; else vipsthumbnail "$f" -s 2048 --export-profile srgb -o "$out[Q=85]"; fi
  exiftool -q -q -m -overwrite_original -gps:all= "$out"
done
SH
chmod +x "$SCRATCH/reference.sh"

measure darkroom "$bin" --size 2048 "$SCRATCH/darkroom" "${files[@]}"
measure vips_copy "$SCRATCH/reference.sh" "$SCRATCH/vips-copy" copy "${files[@]}"
measure vipsthumbnail "$SCRATCH/reference.sh" "$SCRATCH/vipsthumbnail" thumbnail "${files[@]}"
# Files side by side, as the command will run them (its runner keeps $JOBS photos in flight), and
# the named reference given the same parallelism with xargs -P, for a fair figure.
measure darkroom_jobs "$bin" --size 2048 --jobs "$JOBS" "$SCRATCH/darkroom-jobs" "${files[@]}"
measure vips_copy_jobs xargs -P "$JOBS" -n 1 "$SCRATCH/reference.sh" "$SCRATCH/vips-copy-jobs" copy < <(printf '%s\n' "${files[@]}")

printf '\n%-44s %8s %8s %10s %s\n' "" "wall s" "CPU s" "files/s" "outputs with GPS"
for run in darkroom vips_copy vipsthumbnail darkroom_jobs vips_copy_jobs; do
  w=${run}_wall; c=${run}_cpu
  dir="$SCRATCH/$(echo "$run" | tr _ -)"
  count=$(find "$dir" -name '*.jpg' | wc -l)
  leaks=$( (exiftool -q -q -m -if '$gps:all' -p x "$dir" 2>/dev/null || true) | wc -l)
  case $run in
    darkroom) label="darkroom (export-benchmark, one process)";;
    vips_copy) label="vips copy + exiftool -gps:all= (per file)";;
    vipsthumbnail) label="vipsthumbnail -s 2048 + exiftool (per file)";;
    darkroom_jobs) label="darkroom --jobs $JOBS";;
    *) label="vips copy + exiftool, xargs -P $JOBS";;
  esac
  printf '%-44s %8s %8.1f %10.2f %s of %s\n' "$label" "${!w}" "${!c}" "$(calc "$count / ${!w}")" "$leaks" "$count"
done
echo "sizes: darkroom $(vipsheader "$SCRATCH/darkroom/IMG_0001.jpg" | cut -d' ' -f2), vips copy $(vipsheader "$SCRATCH/vips-copy/IMG_0001.jpg" | cut -d' ' -f2)"
echo "CPU seconds per file: darkroom $(calc "$darkroom_cpu / $count"), vips copy + exiftool $(calc "$vips_copy_cpu / $count")"
sequential=$(calc "$vips_copy_wall / $darkroom_wall")
parallel=$(calc "$vips_copy_wall / $darkroom_jobs_wall")
summary "export: vs vips copy + exiftool, one at a time" "${sequential}x" ">=2x" "$(met ge "$sequential" 2)"
summary "export: --jobs $JOBS vs vips copy + exiftool" "${parallel}x" ">=2x" "$(met ge "$parallel" 2)"
summary "export: --jobs $JOBS vs the same, xargs -P $JOBS" "$(calc "$vips_copy_jobs_wall / $darkroom_jobs_wall")x" "-" "-"
summary "export: vs vipsthumbnail + exiftool" "$(calc "$vipsthumbnail_wall / $darkroom_wall")x" "-" "-"
# CPU seconds do not depend on what else the machine runs (wall seconds do, on a shared machine).
summary "export: CPU, vs vips copy + exiftool" "$(calc "$vips_copy_cpu / $darkroom_cpu")x" "-" "-"
