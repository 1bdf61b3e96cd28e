#!/usr/bin/env python3
"""Writes N small unique photos for Benchmarks/scale.sh, quickly: one 96x64 JPEG (given), copied N
times with a different tail after its end-of-image marker each, so every file is its own photo (its
own content hash) while decoding the same. Files go 1,000 a folder (00000/IMG_00000001.jpg, ...),
and each gets a modification time one hour after the previous one, from 2014-01-01 (100,000 files span
about eleven years), so that an import files them by month as a real roll would be: the photos carry no
EXIF date, and the import falls back to the file's time.

    make-unique-photos.py BASE.jpg FOLDER N

Files already there are kept (a folder made for 10,000 is reused for 1,000)."""
import os
import sys

base_path, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = open(base_path, "rb").read()
start = 1388534400  # 2014-01-01T00:00:00Z
for index in range(count):
    sub = os.path.join(folder, "%05d" % (index // 1000))
    if index % 1000 == 0:
        os.makedirs(sub, exist_ok=True)
    path = os.path.join(sub, "IMG_%08d.jpg" % index)
    if os.path.exists(path):
        continue
    with open(path, "wb") as out:
        out.write(base)
        out.write(b"darkroom-scale-%08d" % index)
    moment = start + index * 3600
    os.utime(path, (moment, moment))
