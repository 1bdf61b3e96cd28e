#!/usr/bin/env bash
# Installs what Darkroom needs on Debian 12, only what is missing (safe to run again).
#
#   scripts/setup.sh           what building and running `darkroom` needs: the libraries it links
#                              (libvips, libheif, libexif, FFmpeg, LibRaw, OpenCV, cairo and Pango,
#                              SQLite, libcrypto, zlib) and the offline time-zone map it embeds
#   scripts/setup.sh --import  what the import alone needs (the README's first command, which builds
#                              without the package's Studio trait): no OpenCV, cairo or Pango
#   scripts/setup.sh --tests   everything, and the tools the tests and benchmarks drive or compare with:
#                              the vips, libheif, x265, ffmpeg and LibRaw CLIs, ImageMagick, exiftool,
#                              PostgreSQL (queue tests), the sqlite3 CLI, Chromium (pages), poppler, strace, gdb
set -euo pipefail
import=(
  pkg-config python3-venv
  libvips-dev libheif-dev libexif-dev libraw-dev libsqlite3-dev libssl-dev zlib1g-dev
  libavformat-dev libavcodec-dev libavfilter-dev libswscale-dev libavutil-dev
)
studio=(  # the Studio trait: time-lapse alignment (OpenCV), the photo book (cairo, Pango, a font)
  libcairo2-dev libpango1.0-dev fonts-dejavu-core
  libopencv-core-dev libopencv-imgproc-dev libopencv-features2d-dev libopencv-calib3d-dev libopencv-video-dev
  libopencv-objdetect-dev opencv-data
)
tests=(
  libvips-tools libheif-examples heif-thumbnailer x265 ffmpeg libraw-bin imagemagick libimage-exiftool-perl
  time bc unzip poppler-utils strace gdb sqlite3
  postgresql
  chromium
)
packages=("${import[@]}")
case "${1:-}" in
  --import) ;;
  "") packages+=("${studio[@]}") ;;
  --tests) packages+=("${studio[@]}" "${tests[@]}") ;;
  *) echo "usage: scripts/setup.sh [--import | --tests]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The time-zone map the build embeds, made from its source when missing (not kept in git).
"$(dirname "$0")/make-timezone-map.sh"
