# Shared helpers for the benchmark scripts (sourced, not run).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=${DARKROOM_CORPUS:-$ROOT/../shared/corpus}

# Builds the release binary once and prints its path.
darkroom_binary() {
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --traits Studio,Queue --product darkroom >&2)
  echo "$ROOT/.build/release/darkroom"
}

# Wall seconds of a command (its output discarded).
seconds() {
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

# SSIM (0..1) of two images of the same size, computed by ffmpeg's ssim filter.
ssim() {
  ffmpeg -v error -nostats -i "$1" -i "$2" -lavfi "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]ssim=stats_file=-" -f null - 2>&1 \
    | awk '{for(i=1;i<=NF;i++) if($i ~ /^All:/){split($i,a,":"); s+=a[2]; n++}} END {if(n) printf "%.4f", s/n}'
}

# Writes N photographic-looking JPEGs (plasma + gradient + noise, W x H) with EXIF dates a day apart.
make_photos() {
  local dir=$1 n=$2 size=${3:-4000x3000}
  mkdir -p "$dir"
  for i in $(seq 1 "$n"); do
    local f; f=$(printf "%s/IMG_%04d.jpg" "$dir" "$i")
    [ -f "$f" ] && continue
    convert -seed "$i" -size "$size" plasma:green-brown \( -size "$size" gradient:skyblue-white \) -compose multiply -composite \
      -attenuate 0.3 +noise Gaussian -quality 90 "$f"
    exiftool -q -overwrite_original -DateTimeOriginal="$(date -u -d "2023-01-01 + $i days" '+%Y:%m:%d 12:00:00')" "$f"
  done
}
