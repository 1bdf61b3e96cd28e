# Helpers shared by thumbnails.sh, import.sh, memory.sh, rerun.sh, raw.sh, raw-import.sh and run-all.sh (sourced, not run).
# Builds on common.sh (darkroom_binary, seconds, ssim, make_photos), which it sources.
#
# Environment:
#   DARKROOM_BIN    a built darkroom to use (default: build release once, copy it to bench-out/bin)
#   BENCH_OUT       where generated inputs and scratch output go (default: <repo>/bench-out, gitignored)
#   BENCH_SUMMARY   a file each script appends "name<TAB>figure<TAB>target<TAB>met" lines to (run-all sets it)
#   DARKROOM_CORPUS real photos (default ../shared/corpus); scripts use them when present
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BENCH_OUT=${BENCH_OUT:-$ROOT/bench-out}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$BENCH_OUT/inputs"
[ -x /usr/bin/time ] || { echo "needs GNU time for wall seconds and peak RSS: apt-get install time" >&2; exit 1; }

# Prints the darkroom binary to benchmark. Without DARKROOM_BIN it builds release and copies the binary
# to bench-out/bin, so a rebuild by someone else during a long run cannot swap it out midway.
bench_bin() {
  if [ -n "${DARKROOM_BIN:-}" ]; then echo "$DARKROOM_BIN"; return; fi
  local built; built=$(darkroom_binary)
  mkdir -p "$BENCH_OUT/bin"; cp -f "$built" "$BENCH_OUT/bin/darkroom.tmp"; mv -f "$BENCH_OUT/bin/darkroom.tmp" "$BENCH_OUT/bin/darkroom"
  echo "$BENCH_OUT/bin/darkroom"
}

# bench_scratch NAME: sets SCRATCH to a fresh directory under bench-out/tmp, removed when the script
# exits (KEEP=1 keeps it for a look afterwards).
bench_scratch() {
  mkdir -p "$BENCH_OUT/tmp"
  SCRATCH=$(mktemp -d "$BENCH_OUT/tmp/${1:-run}.XXXXXX")
  if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$SCRATCH"' EXIT; fi
}

# measure NAME COMMAND...: runs COMMAND under GNU time; sets NAME_wall (seconds), NAME_cpu (user + sys
# seconds of it and its children), NAME_rss (peak RSS in KB of the largest single process: for xargs -P
# runs that is one worker, not the sum) and NAME_rc.
# Its output goes to $SCRATCH/NAME.log. A failing command is reported (with the log's tail), and the
# script goes on; callers check NAME_rc where a failure matters.
measure() {
  local name=$1; shift
  local dir=${SCRATCH:-/tmp} rc=0
  /usr/bin/time -f "%e %M %U %S" -o "$dir/$name.time" "$@" > "$dir/$name.log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then echo "warning: $name exited with $rc: $*" >&2; tail -5 "$dir/$name.log" >&2; fi
  local wall rss user sys; read -r wall rss user sys < <(tail -1 "$dir/$name.time")
  printf -v "${name}_wall" '%s' "$wall"; printf -v "${name}_rss" '%s' "$rss"; printf -v "${name}_rc" '%s' "$rc"
  printf -v "${name}_cpu" '%s' "$(echo "$user + $sys" | bc -l)"
}

# calc EXPR: floating-point arithmetic, printed with 3 decimals (bc).
calc() { printf '%.3f' "$(echo "scale=6; $*" | bc -l)"; }
# ge A B / le A B: exit status of A >= B / A <= B (floats).
ge() { [ "$(echo "$1 >= $2" | bc -l)" = 1 ]; }
le() { [ "$(echo "$1 <= $2" | bc -l)" = 1 ]; }
# Sum of the sizes of the given files, in bytes.
bytes_of() { [ $# -gt 0 ] && stat -c %s "$@" | awk '{s+=$1} END {print s+0}' || echo 0; }
# Mean of the numbers given as arguments, 4 decimals (for SSIM).
mean() { printf '%s\n' "$@" | awk '{s+=$1} END {printf "%.4f", NR ? s/NR : 0}'; }
# Median of the numbers given as arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# summary NAME FIGURE TARGET MET: one line for run-all's table (and the script's own last line).
summary() {
  printf 'RESULT %-34s %-22s target %-10s %s\n' "$1" "$2" "$3" "$4"
  if [ -n "${BENCH_SUMMARY:-}" ]; then printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$BENCH_SUMMARY"; fi
}
met() { if "$@"; then echo met; else echo MISSED; fi; }

# base_photos SIZE K: prints a folder of K generated photographic JPEGs of SIZE (make_photos), kept in
# bench-out/inputs between runs so only the first run pays for generating them.
base_photos() {
  local dir="$BENCH_OUT/inputs/base-$1"
  make_photos "$dir" "$2" "$1" >&2
  echo "$dir"
}

# variants SRC K DST N [FIRST [MINUTES]]: fills DST with N JPEGs copied round-robin from the first K
# photos of SRC (IMG_0001..K), each given its own DateTimeOriginal (from FIRST, 2020-01-01 by default,
# one every MINUTES, a day by default), so that every copy has a different content hash and none is
# deduplicated. One exiftool process.
variants() {
  local src=$1 k=$2 dst=$3 n=$4 first=${5:-2020-01-01} minutes=${6:-1440}
  mkdir -p "$dst"
  local have; have=$(find "$dst" -maxdepth 1 -name 'V_*.jpg' | wc -l)
  [ "$have" -eq "$n" ] && return 0
  rm -f "$dst"/V_*.jpg
  local args="$dst/.exiftool-args"; : > "$args"
  local start; start=$(date -u -d "$first 12:00" +%s)
  for i in $(seq 1 "$n"); do
    local from; from=$(printf "%s/IMG_%04d.jpg" "$src" $(( (i - 1) % k + 1 )))
    local to; to=$(printf "%s/V_%05d.jpg" "$dst" "$i")
    cp "$from" "$to"
    printf -- '-DateTimeOriginal=%s\n%s\n-execute\n' "$(date -u -d "@$((start + i * minutes * 60))" '+%Y:%m:%d %H:%M:%S')" "$to" >> "$args"
  done
  exiftool -@ "$args" -common_args -q -overwrite_original >&2
  rm -f "$args"
}

# camera_roll DST NAME N K: fills DST with N generated 4000x3000 JPEGs, each its own photo (variants
# of K base photos), made once and kept in bench-out/inputs/NAME-N between runs.
camera_roll() {
  local dst=$1 kept="$BENCH_OUT/inputs/$2-$3"
  variants "$(base_photos 4000x3000 "$4")" "$4" "$kept" "$3"
  mkdir -p "$dst"; cp "$kept"/*.jpg "$dst/"
}

# corpus_jpegs DST [MAX]: copies the real camera JPEGs over 5 MP from the corpus (not the corrupt,
# truncated or giant test files), at most MAX of them, to DST as corpus-NN.jpg; prints how many. Uses
# the corpus' manifest.tsv (columns path, source, license, filetype, width, height, ..., notes).
corpus_jpegs() {
  local dst=$1 max=${2:-1000} n=0
  mkdir -p "$dst"
  [ -f "$CORPUS/manifest.tsv" ] || { echo 0; return; }
  while IFS=$'\t' read -r path; do
    [ -f "$CORPUS/$path" ] || continue
    [ "$n" -lt "$max" ] || break
    n=$((n + 1)); cp "$CORPUS/$path" "$(printf '%s/corpus-%02d.jpg' "$dst" "$n")"
  done < <(awk -F'\t' 'NR > 1 && $4 == "JPEG" && $5 * $6 > 5000000 && $5 * $6 <= 50000000 && $12 !~ /CORRUPT|TRUNCATED|HUGE/ {print $1}' "$CORPUS/manifest.tsv")
  echo "$n"
}

# The real ImageMagick convert (not the stand-in some machines have in /usr/local/bin, whose Python
# start-up would be billed to ImageMagick), or nothing.
imagemagick() {
  if [ -n "${IM_CONVERT:-}" ]; then echo "$IM_CONVERT"; return; fi
  if [ -x /usr/bin/convert ]; then echo /usr/bin/convert; return; fi
  command -v convert >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick && command -v convert
}

# heic_map LIBRARY: "original<TAB>published heic" for each photo of a Darkroom library, from its catalog.
heic_map() {
  sqlite3 -separator $'\t' "$1/.darkroom/catalog.sqlite" \
    "select a.original_path, o.path from outputs o join assets a on a.content_hash = o.subject where o.step = 'heic-encode' or o.step like '%/heic-encode' order by a.original_path"
}

# raw_dng WIDTH HEIGHT: prints a generated Bayer DNG of WIDTH x HEIGHT (PiDNG, make-raw-dng.py, installed
# into bench-out/rawvenv on first use) with a full-size JPEG preview as cameras embed one (dcraw_emu's
# half-size development scaled up, Q90), kept in bench-out/inputs between runs.
raw_dng() {
  local width=$1 height=$2 venv="$BENCH_OUT/rawvenv" out="$BENCH_OUT/inputs/raw-$1x$2.dng"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pidng, numpy' 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q pidng==4.0.9 numpy >&2
  fi
  if [ ! -f "$out" ]; then
    local tmp="$BENCH_OUT/inputs/raw-tmp"; mkdir -p "$tmp"
    "$venv/bin/python" "$ROOT/Benchmarks/make-raw-dng.py" "$tmp/raw.dng" --width "$width" --height "$height" >&2
    dcraw_emu -w -g 2.4 12.92 -h -Z "$tmp/half.ppm" "$tmp/raw.dng" >&2
    vips resize "$tmp/half.ppm" "$tmp/preview.jpg[Q=90]" 2 >&2
    "$venv/bin/python" "$ROOT/Benchmarks/make-raw-dng.py" "$tmp/raw.dng" --add-preview "$tmp/preview.jpg" >&2
    mv "$tmp/raw.dng" "$out"; rm -rf "$tmp"
  fi
  echo "$out"
}

# timelapse_photos N: the time-lapse benchmarks' N photos of 12 MP (timelapse-photos.sh, kept in
# TIMELAPSE_WORK between runs), read once into the page cache; sets photos (their folder) and pw, ph
# (the picture area of a letterboxed 1920x1080 frame: every photo of the set has the first one's size).
timelapse_photos() {
  photos="${TIMELAPSE_WORK:-/tmp/darkroom-timelapse-bench}/photos-$1"
  "$ROOT/Benchmarks/timelapse-photos.sh" "$photos" "$1"
  cat "$photos"/*.jpg > /dev/null   # every run reads them from the page cache
  local first; first=$(ls "$photos"/*.jpg | head -1)
  read -r pw ph < <(printf '%s %s\n' "$(vipsheader -f width "$first")" "$(vipsheader -f height "$first")" \
    | awk '{s = (1920 / $1 < 1080 / $2) ? 1920 / $1 : 1080 / $2; w = int($1 * s / 2 + 0.5) * 2; h = int($2 * s / 2 + 0.5) * 2; print w, h}')
}

header() {
  echo "== $1 =="
  echo "date $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
}
