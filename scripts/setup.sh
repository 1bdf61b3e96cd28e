#!/usr/bin/env bash
# Installs the Debian 12 packages Darkroom builds against and the tools its tests and benchmarks
# compare with. Safe to run again: it installs only what is missing.
set -euo pipefail
packages=(
  pkg-config python3-venv libvips-dev libheif-dev libexif-dev libsqlite3-dev libssl-dev
  libavformat-dev libavcodec-dev libavfilter-dev libswscale-dev libavutil-dev
  libvips-tools libheif-examples heif-thumbnailer x265 ffmpeg imagemagick libimage-exiftool-perl fonts-dejavu-core time bc
  postgresql
  libcairo2-dev libpango1.0-dev poppler-utils
  gdb  # every thread's backtrace of a test process that dies (scripts/backtraces.sh)
  chromium
)
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
