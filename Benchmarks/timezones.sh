#!/usr/bin/env bash
# The time zone at a GPS position: DarkroomTimeZones against timezonefinder, on the same points in one run.
#
#   Benchmarks/timezones.sh [--quick]
#
# Prints the map file's size; DarkroomTimeZones' load time, resident memory before and after
# loading, and cost of a lookup (median, p99 and mean over random points spread evenly over the
# sphere, and over those on land), from the not-shipped timezone-benchmark executable (release);
# timezonefinder's load time and mean cost of a lookup (Python with its C extension, one call a
# point), and the ratio. Then the agreement with timezonefinder on random points (full: 1,000,000,
# quick: 100,000) and on points near borders (full: 10,000, quick: 2,000), with every disagreement's
# distance from the border (Benchmarks/timezones-compare.py). Target: no disagreement more than 1 km
# from a border.
#
# timezonefinder, timezonefinder-data and shapely (the versions scripts/make-timezone-data.py used)
# are installed into bench-out/tzvenv on the first run.
source "$(dirname "$0")/bench-lib.sh"
quick=0; [ "${1:-}" = "--quick" ] && quick=1
if [ $quick = 1 ]; then points=100000 border=2000 lookups=100000; else points=1000000 border=10000 lookups=1000000; fi
header "timezones$([ $quick = 1 ] && echo ' (quick)')"

venv="$BENCH_OUT/tzvenv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import timezonefinder, shapely' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1 shapely==2.2.0
fi
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product timezone-benchmark >&2)
bin="$ROOT/.build/release/timezone-benchmark"
map="$ROOT/Sources/DarkroomTimeZones/Resources/timezones.bin"

echo "map: $map, $(stat -c %s "$map") bytes"
ours=$("$bin" --points "$lookups" --map "$map")
echo "$ours"
reference=$("$venv/bin/python" "$ROOT/Benchmarks/timezones-compare.py" "$bin" --points "$points" --border-points "$border")
echo "$reference"

field() { echo "$1" | awk -v k="$2:" '$1 == k {print $2; exit}'; }
mean_ours=$(field "$ours" lookup_mean_ns)
mean_reference=$(field "$reference" reference_lookup_mean_ns)
far=$(echo "$reference" | awk '/^agreement_over_1km_from_border:/ {print $2}')
echo "lookup: Darkroom mean ${mean_ours} ns, timezonefinder mean ${mean_reference} ns"
summary "timezones: lookup speed vs timezonefinder" "$(calc "$mean_reference / $mean_ours")x" "-" "-"
summary "timezones: misses over 1 km from a border" "$far of $points" "0" "$(met [ "$far" = 0 ])"
