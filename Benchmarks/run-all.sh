#!/usr/bin/env bash
# Runs every benchmark and prints a summary table.
#
#   Benchmarks/run-all.sh [--quick]
#
# Builds darkroom (release) once and has every script use that binary (DARKROOM_BIN), then runs
# thumbnails.sh, import.sh, regenerate.sh, memory.sh, rerun.sh, and heic-quality.sh, timelapse.sh, takeout.sh, gallery.sh, raw.sh, raw-import.sh,
# align.sh and scale.sh when present,
# passing --quick through. Each script's full output goes to bench-out/logs/<name>.log and to the
# terminal; the table at the end collects their RESULT lines. A script that fails is listed as failed
# and the others still run. ONLY="thumbnails rerun" runs a subset.
source "$(dirname "$0")/bench-lib.sh"
mode=(); [ "${1:-}" = "--quick" ] && mode=(--quick)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
logs="$BENCH_OUT/logs"; mkdir -p "$logs"
export BENCH_SUMMARY="$logs/summary.tsv"; : > "$BENCH_SUMMARY"
export DARKROOM_BIN; DARKROOM_BIN=$(bench_bin)
echo "darkroom: $DARKROOM_BIN ($(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && [ -n "$(git status --porcelain -- Sources Plugins Package.swift 2>/dev/null)" ] && echo ', with uncommitted changes'))"

scripts=(thumbnails import regenerate memory rerun)
for extra in heic-quality timelapse takeout gallery raw raw-import align scale; do [ -x "$ROOT/Benchmarks/$extra.sh" ] || [ -f "$ROOT/Benchmarks/$extra.sh" ] && scripts+=("$extra"); done
[ -n "${ONLY:-}" ] && read -r -a scripts <<< "$ONLY"
declare -A took status
for s in "${scripts[@]}"; do
  echo; echo "######## $s ${mode[*]}"
  t0=$(date +%s)
  if bash "$ROOT/Benchmarks/$s.sh" "${mode[@]}" 2>&1 | tee "$logs/$s.log"; then status[$s]=ok; else status[$s]="FAILED (see $logs/$s.log)"; fi
  took[$s]=$(( $(date +%s) - t0 ))
  # Scripts that are not ours print no RESULT lines: record their headline.
  case $s in
    timelapse) l=$(grep -m1 '^ratio:' "$logs/$s.log" || true); [ -n "$l" ] && printf '%s\t%s\t%s\t%s\n' "timelapse: darkroom / ffmpeg CLI" \
                 "$(echo "$l" | grep -o '[0-9.]*x' | head -1)" "-" "-" >> "$BENCH_SUMMARY" ;;
    heic-quality) l=$(grep -m1 '^pick' "$logs/$s.log" || true); [ -n "$l" ] && printf '%s\t%s\t%s\t%s\n' "heic-quality: pick" \
                 "$(echo "$l" | sed 's/^[^:]*: //')" "-" "-" >> "$BENCH_SUMMARY" ;;
  esac
done

echo
echo "================ summary$([ ${#mode[@]} -gt 0 ] && echo ' (quick)')"
echo "started $started, finished $(date -u '+%Y-%m-%d %H:%M UTC'); $(uname -m), $(nproc) cores; $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"); load now $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-42s %-30s %-10s %s\n' benchmark figure target result
while IFS=$'\t' read -r name figure target result; do
  printf '%-42s %-30s %-10s %s\n' "$name" "$figure" "$target" "$result"
done < "$BENCH_SUMMARY"
echo
for s in "${scripts[@]}"; do printf '%-14s %-8s %5s s\n' "$s" "${status[$s]}" "${took[$s]}"; done
