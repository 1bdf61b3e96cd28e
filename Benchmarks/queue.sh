#!/usr/bin/env bash
# Work-queue throughput: photos (work units) per second with 1, 2 and 4 `darkroom worker` processes
# on this machine, PostgreSQL as queue and catalog, against a single-machine `darkroom run` on the
# same inputs. On a small machine the shape matters, not the absolute figure. A worker runs one job
# at a time, but a job uses several cores (libvips threads; x265's own pool for HEIC), so on 2 cores
# one worker already fills the machine: more workers should hold the rate, not multiply it, and the
# fleet should keep up with `darkroom run` (the queue's own cost is small).
#
#   Benchmarks/queue.sh [--quick]
#   PIPELINE=regenerate-thumbnails SIZE=1024x768 N=120 Benchmarks/queue.sh   # short units: the queue's cost shows
#
# Default: pipelines/import-camera-roll.yaml (HEIC + thumbnail) on 48 generated 1600x1200 JPEGs
# (--quick: 16). Workers run with --jobs 1; the single-machine run uses --jobs 2. Enqueueing is timed
# apart. PostgreSQL: scripts/postgres-test-server.sh (a private server), a fresh database each time.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then n=16; else n=${N:-48}; fi
size=${SIZE:-1600x1200}
header "queue$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch queue
server=$("$ROOT/scripts/postgres-test-server.sh" start $$)
trap '"$ROOT/scripts/postgres-test-server.sh" release $$ >/dev/null 2>&1 || true; [ "${KEEP:-0}" = 1 ] || rm -rf "$SCRATCH"' EXIT

in="$BENCH_OUT/inputs/queue-$size-$n"
variants "$(base_photos "$size" 4)" 4 "$in" "$n"
cat "$in"/*.jpg > /dev/null
name=${PIPELINE:-import-camera-roll}
pipeline="$ROOT/pipelines/$name.yaml"
echo "pipeline: $name; inputs: $n photos of $size"

# fresh_database NAME: prints the URL of a new empty database on the server.
fresh_database() {
  psql "$server" -XqAt -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null 2>&1
  echo "${server%/*}/$1"
}

measure single "$bin" run "$pipeline" --input "$in" --library "$SCRATCH/single" --jobs 2
echo "darkroom run --jobs 2: $single_wall s ($(calc "$n / $single_wall") photos/s)"

printf '%-9s %-10s %-10s %-12s %s\n' workers enqueue_s work_s photos_per_s vs_1_worker
base=""
for w in 1 2 4; do
  url=$(fresh_database "bench_queue_$w")
  lib="$SCRATCH/lib-$w"
  enq=$(seconds "$bin" enqueue "$pipeline" --input "$in" --library "$lib" --queue "$url")
  start=$(date +%s.%N)
  pids=()
  for i in $(seq 1 $w); do
    "$bin" worker --queue "$url" --jobs 1 --poll 0.2 --exit-when-done > "$SCRATCH/worker-$w-$i.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  work=$(calc "$(date +%s.%N) - $start")
  done_jobs=$(psql "$url" -XqAt -c "SELECT count(*) FROM jobs WHERE state = 'done'")
  [ "$done_jobs" = "$n" ] || echo "warning: $done_jobs of $n jobs done with $w workers"
  rate=$(calc "$done_jobs / $work")
  [ -z "$base" ] && base=$rate
  printf '%-9s %-10s %-10s %-12s %sx\n' "$w" "$enq" "$work" "$rate" "$(calc "$rate / $base")"
  eval "rate_$w=$rate"
done
summary "queue ($name): 2 workers / 1 worker" "$(calc "$rate_2 / $rate_1")x" "(shape)" "-"
summary "queue ($name): 4 workers / darkroom run" "$(calc "$rate_4 * $single_wall / $n")x" ">= 0.9x" "$(met ge "$(calc "$rate_4 * $single_wall / $n")" 0.9)"
