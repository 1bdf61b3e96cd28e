#!/usr/bin/env bash
# `darkroom export` itself against the reference issue 24 names, on real library HEICs.
#
#   Benchmarks/export-command.sh [--quick]
#
# Inputs: the corpus' camera JPEGs over 5 MP (each given a GPS position and a city with exiftool),
# copied round-robin to 100 files (--quick: 20) with distinct bytes, imported with the shipped
# pipeline (pipelines/import-camera-roll.yaml): so they are what a library holds, 2048 px HEICs
# with their EXIF and GPS. Darkroom's side: one process, `darkroom export --library L --to OUT
# --jobs 1` (2048 px JPEGs q85 without location), then the same with --jobs $JOBS. The reference,
# per file of the same library HEICs: `vips copy IN.heic OUT.jpg[Q=85]` then `exiftool -m
# -overwrite_original -gps:all= OUT.jpg`, one file at a time, then under xargs -P $JOBS. Wall and
# CPU seconds are printed for each; every output is checked for GPS afterwards. Target: >= 2x.
# DARKROOM_BIN=path uses a darkroom built elsewhere (default: release, built once).
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
n=$([ $quick = 1 ] && echo 20 || echo 100)
header "export command$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch export-command

library="$BENCH_OUT/inputs/export-library-$n"
if [ "$(find "$library/Photos" -name '*.heic' 2>/dev/null | wc -l)" != "$n" ]; then
  rm -rf "$library" "$SCRATCH/roll"; mkdir -p "$SCRATCH/roll/base"
  k=$(corpus_jpegs "$SCRATCH/roll/base" 20)
  [ "$k" -gt 0 ] || { echo "no corpus JPEGs: set DARKROOM_CORPUS" >&2; exit 1; }
  bases=("$SCRATCH"/roll/base/*.jpg)
  for i in $(seq 1 "$n"); do
    out=$(printf '%s/roll/IMG_%04d.jpg' "$SCRATCH" "$i")
    cp "${bases[$(( (i - 1) % ${#bases[@]} ))]}" "$out"
    # A position and a city to remove, and a distinct date so that every copy is its own photo.
    exiftool -q -q -m -overwrite_original -GPSLatitude=48.8582 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E \
      -XMP-photoshop:City=Paris "-DateTimeOriginal=2024:05:01 10:$(printf '%02d:%02d' $((i / 60)) $((i % 60)))" "$out" 2>/dev/null \
      || rm -f "$out"
  done
  rm -rf "$SCRATCH/roll/base"
  "$bin" run "$ROOT/pipelines/import-camera-roll.yaml" --input "$SCRATCH/roll" --library "$library" --quiet >/dev/null
fi
mapfile -t files < <(find "$library/Photos" -name '*.heic' | sort)
echo "inputs: ${#files[@]} library HEICs, $(vipsheader "${files[0]}" | cut -d' ' -f2), $(( $(bytes_of "${files[@]}") / 1000000 )) MB, $( (exiftool -q -q -m -if '$gps:GPSLatitude' -p x "${files[@]}" || true) | wc -l) with GPS"
cat "${files[@]}" > /dev/null

cat > "$SCRATCH/reference.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
dir=$1; shift; mkdir -p "$dir"
for f in "$@"; do
  out="$dir/$(basename "$f" .heic).jpg"
  vips copy "$f" "$out[Q=85]"
  exiftool -q -q -m -overwrite_original -gps:all= "$out"
done
SH
chmod +x "$SCRATCH/reference.sh"

measure darkroom "$bin" export --library "$library" --to "$SCRATCH/darkroom" --jobs 1 --quiet
measure reference "$SCRATCH/reference.sh" "$SCRATCH/reference" "${files[@]}"
measure darkroom_jobs "$bin" export --library "$library" --to "$SCRATCH/darkroom-jobs" --jobs "$JOBS" --quiet
measure reference_jobs xargs -P "$JOBS" -n 1 "$SCRATCH/reference.sh" "$SCRATCH/reference-jobs" < <(printf '%s\n' "${files[@]}")

printf '\n%-44s %8s %8s %s\n' "" "wall s" "CPU s" "outputs with GPS"
for run in darkroom reference darkroom_jobs reference_jobs; do
  w=${run}_wall; c=${run}_cpu; dir="$SCRATCH/$(echo "$run" | tr _ -)"
  count=$(find "$dir" -name '*.jpg' | wc -l)
  leaks=$( (exiftool -q -q -m -if '$gps:all' -p x "$dir" 2>/dev/null || true) | wc -l)
  case $run in
    darkroom) label="darkroom export --jobs 1 (one process)";;
    reference) label="vips copy + exiftool -gps:all= (per file)";;
    darkroom_jobs) label="darkroom export --jobs $JOBS";;
    *) label="vips copy + exiftool, xargs -P $JOBS";;
  esac
  printf '%-44s %8s %8.1f %s of %s\n' "$label" "${!w}" "${!c}" "$leaks" "$count"
done
summary "export command: vs vips copy + exiftool, one at a time" "$(calc "$reference_wall / $darkroom_wall")x" ">=2x" "$(met ge "$(calc "$reference_wall / $darkroom_wall")" 2)"
summary "export command: CPU, one at a time" "$(calc "$reference_cpu / $darkroom_cpu")x" "-" "-"
summary "export command: --jobs $JOBS vs xargs -P $JOBS" "$(calc "$reference_jobs_wall / $darkroom_jobs_wall")x" ">=2x" "$(met ge "$(calc "$reference_jobs_wall / $darkroom_jobs_wall")" 2)"
