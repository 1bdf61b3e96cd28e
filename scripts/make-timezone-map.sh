#!/usr/bin/env bash
# Builds Sources/DarkroomTimeZones/Resources/timezones.bin (the offline time-zone map, 4.5 MB) from
# its source, PyPI's timezonefinder-data, when it is missing; scripts/setup.sh runs it. The map is
# not kept in git: the pinned packages below make it byte for byte the same on every machine (about
# 50 s on two cores). The packages go to a virtual environment under ${XDG_CACHE_HOME:-~/.cache}.
set -euo pipefail
cd "$(dirname "$0")/.."
map=Sources/DarkroomTimeZones/Resources/timezones.bin
[ -s "$map" ] && exit 0
venv="${XDG_CACHE_HOME:-$HOME/.cache}/darkroom/tzdata-venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1 shapely==2.2.0
fi
"$venv/bin/python" scripts/make-timezone-data.py --output "$map"
