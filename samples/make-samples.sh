#!/usr/bin/env bash
# Regenerates the camera-roll samples in samples/camera-roll/ (committed; run this only to change them).
# Needs ImageMagick, libvips-tools, exiftool, ffmpeg and python3. Every image and clip is made here:
# nothing is copied from elsewhere.
set -euo pipefail
cd "$(dirname "$0")"
out=camera-roll
rm -rf "$out"; mkdir -p "$out/DCIM/100CANON" "$out/Phone" "$out/Backup"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

scene() { # scene NAME WxH SEED: a plasma "landscape" with a sky gradient, fine noise and a sun
  convert -seed "$3" -size "$2" plasma:green-brown \( -size "$2" gradient:skyblue-white \) -compose multiply -composite \
    -attenuate 0.4 +noise Gaussian -fill '#ffd54a' -draw "circle 120,90 120,140" "$tmp/$1.png"
}

# A Canon-style JPEG with a full EXIF date and offset.
scene a 1600x1200 1
convert "$tmp/a.png" -quality 88 "$out/DCIM/100CANON/IMG_0001.JPG"
exiftool -q -overwrite_original -Make=Canon -Model="Canon EOS 80D" -DateTimeOriginal="2024:03:15 09:30:00" \
  -OffsetTimeOriginal="+01:00" -SubSecTimeOriginal=25 "$out/DCIM/100CANON/IMG_0001.JPG"

# A portrait shot stored sideways with EXIF Orientation 6 (must come out upright, 1200x1600).
scene b 1600x1200 2
convert "$tmp/b.png" -fill red -draw "rectangle 1500,0 1600,1200" -quality 88 "$out/DCIM/100CANON/IMG_0002.JPG"
exiftool -q -overwrite_original -Make=Canon -Model="Canon EOS 80D" -Orientation#=6 \
  -DateTimeOriginal="2024:03:16 18:05:10" -OffsetTimeOriginal="+01:00" "$out/DCIM/100CANON/IMG_0002.JPG"

# A Pixel photo without EXIF: the date comes from the file name.
scene c 1200x900 3
convert "$tmp/c.png" -quality 85 "$out/Phone/PXL_20240401_101530123.jpg"

# A phone HEIC taken late on leap day in New York (UTC-5): it files under February, not March.
scene d 1400x1050 4
convert "$tmp/d.png" -quality 90 "$tmp/d.jpg"
exiftool -q -overwrite_original -Make=Apple -Model="iPhone 13" -DateTimeOriginal="2024:02:29 23:59:58" \
  -OffsetTimeOriginal="-05:00" "$tmp/d.jpg"
vips heifsave "$tmp/d.jpg" "$out/Phone/IMG_4512.HEIC" --Q 50 --compression hevc

# A PNG (flat colours, as PNGs from phones usually are) with only a GPS time (UTC).
convert -size 1000x700 gradient:'#4aa3df'-'#f5e6c4' -fill '#e0c68f' -draw "rectangle 0,450 1000,700" \
  -fill '#ffd54a' -draw "circle 800,120 800,180" "$out/Phone/beach.png"
exiftool -q -overwrite_original -GPSDateStamp="2023:08:20" -GPSTimeStamp="14:45:00" "$out/Phone/beach.png"

# A WebP with an XMP date only.
scene f 1100x800 6
convert "$tmp/f.png" -quality 80 "$out/Phone/garden.webp"
exiftool -q -overwrite_original -XMP-photoshop:DateCreated="2023:12:24 16:20:00+01:00" "$out/Phone/garden.webp"

# A Live Photo: a HEIC still whose Apple maker note carries the Live Photo identifier (tag 0x0011,
# exiftool's MediaGroupUUID) and a 1.5 s MOV with the same identifier in Apple's QuickTime keys. The
# MOV is filed beside the still, under the still's id. exiftool cannot create a maker note, so a
# minimal Apple one (signature, version, byte order, one IFD entry) is written as a block.
live=0F2A4C1E-7B7D-4E57-9A3B-2C6E1D9F0A11
python3 - "$tmp/apple.bin" "$live" <<'PY'
import struct, sys
uuid = sys.argv[2].encode() + b"\0"
ifd = 14  # after "Apple iOS\0", the version and "MM"
blob = b"Apple iOS\0" + b"\x00\x01" + b"MM" + struct.pack(">H", 1) \
    + struct.pack(">HHII", 0x0011, 2, len(uuid), ifd + 2 + 12 + 4) + struct.pack(">I", 0) + uuid
open(sys.argv[1], "wb").write(blob)
PY
scene g 1400x1050 7
convert "$tmp/g.png" -quality 90 "$tmp/g.jpg"
vips heifsave "$tmp/g.jpg" "$out/Phone/IMG_4520.HEIC" --Q 50 --compression hevc
exiftool -q -overwrite_original -Make=Apple -Model="iPhone 13" -DateTimeOriginal="2024:05:18 17:42:10" \
  -OffsetTimeOriginal="+02:00" "-MakerNotes<=$tmp/apple.bin" "$out/Phone/IMG_4520.HEIC"
ffmpeg -v error -y -loop 1 -i "$tmp/g.jpg" -t 1.5 -r 30 -vf "scale=640:480,zoompan=z='1+0.002*on':d=1:s=640x480" \
  -c:v libx264 -preset veryslow -crf 30 -pix_fmt yuv420p -movflags use_metadata_tags \
  -metadata com.apple.quicktime.content.identifier="$live" -metadata com.apple.quicktime.creationdate=2024-05-18T17:42:09+0200 \
  -metadata com.apple.quicktime.make=Apple -metadata com.apple.quicktime.model="iPhone 13" -f mov "$out/Phone/IMG_4520.MOV"

# A phone video of its own (H.264 with AAC sound, Apple's creation date in Lisbon's summer time):
# Videos/2024/06/<id>.mp4, streams copied, with a poster-frame thumbnail.
scene h 1280x720 8
ffmpeg -v error -y -loop 1 -i "$tmp/h.png" -f lavfi -i "sine=f=330:d=2" -t 2 -r 30 \
  -vf "scale=640:360,zoompan=z='1+0.003*on':d=1:s=640x360" -c:v libx264 -preset veryslow -crf 30 -pix_fmt yuv420p \
  -c:a aac -b:a 32k -shortest -movflags use_metadata_tags \
  -metadata com.apple.quicktime.creationdate=2024-06-02T11:05:00+0100 -metadata com.apple.quicktime.make=Apple \
  -metadata com.apple.quicktime.model="iPhone 13" -f mov "$out/Phone/IMG_4531.MOV"

# The same card imported twice: a byte-identical copy under another name.
cp "$out/DCIM/100CANON/IMG_0001.JPG" "$out/Backup/IMG_0001 (copy).JPG"
du -sh "$out"
