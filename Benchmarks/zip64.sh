#!/usr/bin/env bash
# DarkroomZip past 4 GiB, and its memory: the not-shipped zip-benchmark (release) archives a small
# set of files and then a set with one sparse file over 4 GiB, each file stored and read in 1 MiB
# chunks with a small deflated XMP entry beside it; both archives are read back by Python's zipfile
# (testzip, names, sizes, and each entry's CRC-32 against zlib's CRC-32 of its source) and by
# `unzip -t`, and the large one must hold ZIP64 records. Kept out of the test suite: the large
# archive writes about 4.7 GB and each reader reads it all again (a minute or more here).
#
#   Benchmarks/zip64.sh
#
# Prints each run's wall and CPU seconds (user + system), MB/s and peak RSS (GNU time, KB, the
# whole process) and the ratio of the large run's peak RSS to the small one's. Memory must not grow
# with the archive: target large / small <= 1.2. Needs about 5 GB free in bench-out.
# ZIP_BENCHMARK=path uses a zip-benchmark built elsewhere.
source "$(dirname "$0")/bench-lib.sh"
header "zip64"
if [ -n "${ZIP_BENCHMARK:-}" ]; then bin=$ZIP_BENCHMARK; else
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --product zip-benchmark >&2); bin="$ROOT/.build/release/zip-benchmark"
fi
bench_scratch zip64

inputs="$SCRATCH/inputs"; mkdir -p "$inputs"
for i in 1 2 3 4 5 6 7 8; do head -c $((8 << 20)) /dev/urandom > "$inputs/photo-$i.jpg"; done
truncate -s 4700M "$inputs/video-4.7G.mp4"      # sparse: mostly zeros, read like any file
printf 'not all zeros at the end' | dd of="$inputs/video-4.7G.mp4" bs=1 seek=$((4700 * 1048576 - 24)) conv=notrunc status=none
small=("$inputs"/photo-*.jpg)
large=("$inputs"/photo-*.jpg "$inputs/video-4.7G.mp4")

verify() {  # verify ARCHIVE SOURCE...: Python's zipfile and unzip -t; prints one line
  python3 - "$@" <<'PY'
import struct, sys, zipfile, zlib
archive, sources = sys.argv[1], sys.argv[2:]
with zipfile.ZipFile(archive) as z:
    assert z.testzip() is None, "testzip found a bad entry"
    infos = z.infolist()
    assert len(infos) == 2 * len(sources), f"{len(infos)} entries"
    for info, source in zip(infos[0::2], sources):
        crc, size = 0, 0
        with open(source, "rb") as f:
            while chunk := f.read(1 << 22):
                crc, size = zlib.crc32(chunk, crc), size + len(chunk)
        assert info.filename.endswith(source.rsplit("/", 1)[1]), info.filename
        assert (info.file_size, info.CRC) == (size, crc), f"{info.filename}: {info.file_size} {info.CRC:08x} vs {size} {crc:08x}"
raw = open(archive, "rb")
raw.seek(-22, 2); end = raw.read(22)
zip64 = False
if end[:4] == b"PK\x05\x06":
    raw.seek(-42, 2); zip64 = raw.read(4) == b"PK\x06\x07"
print(f"python zipfile: {len(infos)} entries, sizes and CRC-32s match the sources, zip64 end records: {zip64}")
PY
  unzip -tq "$1" | sed 's/^/unzip -t: /'
}

printf '%-6s %8s %8s %8s %8s %14s\n' run entries "wall s" "CPU s" "MB/s" "peak RSS KB"
for run in small large; do
  declare -n files=$run
  measure "$run" "$bin" "$SCRATCH/$run.zip" "${files[@]}"
  w=${run}_wall; c=${run}_cpu; r=${run}_rss
  bytes=$(stat -c %s "$SCRATCH/$run.zip")
  printf '%-6s %8s %8s %8.1f %8.0f %14s  (%s bytes)\n' "$run" "$(awk '/^entries:/ {print $2}' "$SCRATCH/$run.log")" "${!w}" \
    "${!c}" "$(calc "$bytes / 1000000 / ${!w}")" "${!r}" "$bytes"
  start=$(date +%s.%N)
  verify "$SCRATCH/$run.zip" "${files[@]}"
  echo "read back in $(calc "$(date +%s.%N) - $start") s"
  [ "$run" = small ] || rm -f "$SCRATCH/$run.zip"
  unset -n files
done
ratio=$(calc "$large_rss / $small_rss")
echo
echo "peak RSS: small archive $(calc "$small_rss / 1024") MB, 4.7 GB archive $(calc "$large_rss / 1024") MB: ratio ${ratio}x"
summary "zip64: 4.7 GB archive written" "${large_wall} s" "-" "$(met [ "$large_rc" = 0 ])"
summary "zip64: peak RSS 4.7 GB / 64 MB archive" "${ratio}x (${small_rss} -> ${large_rss} KB)" "<=1.2x" "$(met le "$ratio" 1.2)"
