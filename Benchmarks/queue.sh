#!/usr/bin/env bash
# Work-queue throughput: photos (work units) per second with 1, 2 and 4 `darkroom worker` processes
# on this machine, PostgreSQL as queue and catalog, against a single-machine `darkroom run` on the
# same inputs. On a 2-core machine the shape matters, not the absolute figure: 2 workers should come
# close to twice 1, and 4 no further (the cores are busy).
#
#   Benchmarks/queue.sh [--quick]
#
# Full: 48 photos; --quick: 16; 1600x1200 generated JPEGs through pipelines/import-camera-roll.yaml
# (HEIC + thumbnail). Each worker runs one job at a time with --jobs 1; the single-machine run uses
# --jobs 2. Enqueueing is timed apart. PostgreSQL: scripts/postgres-test-server.sh (a private server),
# one fresh database per measurement.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then n=16; else n=48; fi
header "queue$([ $quick = 1 ] && echo ' (quick)')"
bin=$(bench_bin)
bench_scratch queue
server=$("$ROOT/scripts/postgres-test-server.sh" start $$)
trap '"$ROOT/scripts/postgres-test-server.sh" release $$ >/dev/null 2>&1 || true; [ "${KEEP:-0}" = 1 ] || rm -rf "$SCRATCH"' EXIT

in="$BENCH_OUT/inputs/queue-$n"
variants "$(base_photos 1600x1200 4)" 4 "$in" "$n"
cat "$in"/*.jpg > /dev/null
pipeline="$ROOT/pipelines/import-camera-roll.yaml"

# fresh_database NAME: prints the URL of a new empty database on the server.
fresh_database() {
  psql "$server" -XqAt -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null
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
summary "queue: 2 workers / 1 worker" "$(calc "$rate_2 / $rate_1")x" ">= 1.6x" "$(met ge "$(calc "$rate_2 / $rate_1")" 1.6)"
summary "queue: 4 workers / darkroom run" "$(calc "$rate_4 * $single_wall / $n")x" ">= 0.9x" "$(met ge "$(calc "$rate_4 * $single_wall / $n")" 0.9)"
