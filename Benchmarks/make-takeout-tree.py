#!/usr/bin/env python3
"""Writes a Google Takeout export of N photos for Benchmarks/takeout.sh, and its expected filing.

    make-takeout-tree.py OUT N BASE.jpg...

OUT/Takeout/Google Photos/Photos from YYYY/ holds the photos, each a copy of one of the BASE JPEGs
made unique by its EXIF (exiftool, one run for all). A quarter carry an EXIF date that agrees with
their JSON (the wall clock of the instant in the zone of their geoData, or UTC), a quarter one that
disagrees by years (a date corrected in Google Photos: the JSON wins), half none. JSON sidecars
rotate through every naming Takeout has used: IMG.jpg.json, IMG.jpg.supplemental-metadata.json, both
cut to 46 characters, a duplicate's counter after the name, without the extension, an edited copy
sharing its original's. One photo in 50 has no JSON and an EXIF date. An album folder holds copies
of one photo in ten with their own JSON, and a metadata.json. Every file's modification time is the
export day, 2024-06-01.

Writes OUT/expected.tsv: each photo's path and the YYYY/MM it must be filed in (with --time-zone UTC).
"""
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

EXPORT_DAY = datetime.datetime(2024, 6, 1, 12, tzinfo=datetime.timezone.utc).timestamp()
PLACES = [(35.6895, 139.6917, 9), (40.7128, -74.0060, None), (48.8566, 2.3522, None), None, None]  # Tokyo has no DST


def zone_offset_hours(place, when):
    """The offset at a place for the few places used; New York and Paris by their DST rules (2010s)."""
    if place is None:
        return 0
    lat, lon, fixed = place
    if fixed is not None:
        return fixed
    year = when.year
    if lon < 0:  # New York: second Sunday of March to first Sunday of November, 07:00Z/06:00Z
        start = second_sunday(year, 3).replace(hour=7)
        end = first_sunday(year, 11).replace(hour=6)
        return -4 if start <= when < end else -5
    start = last_sunday(year, 3).replace(hour=1)  # Paris: last Sunday of March to last Sunday of October, 01:00Z
    end = last_sunday(year, 10).replace(hour=1)
    return 2 if start <= when < end else 1


def first_sunday(year, month):
    day = datetime.datetime(year, month, 1, tzinfo=datetime.timezone.utc)
    return day + datetime.timedelta(days=(6 - day.weekday()) % 7)


def second_sunday(year, month):
    return first_sunday(year, month) + datetime.timedelta(days=7)


def last_sunday(year, month):
    nxt = datetime.datetime(year + month // 12, month % 12 + 1, 1, tzinfo=datetime.timezone.utc)
    day = nxt - datetime.timedelta(days=1)
    return day - datetime.timedelta(days=(day.weekday() + 1) % 7)


def cut(name, limit=46):
    units, out = 0, ""
    for ch in name:
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            break
        out += ch
    return out


def main():
    out, count, bases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    root = os.path.join(out, "Takeout", "Google Photos")
    album = os.path.join(root, "Trip album")
    os.makedirs(album, exist_ok=True)
    expected, exif_args, album_copies = [], [], []
    for n in range(count):
        when = datetime.datetime(2012 + n % 12, 1 + (n // 12) % 12, 10 + n % 15, 3 + n % 17, n % 60, tzinfo=datetime.timezone.utc)
        place = PLACES[n % len(PLACES)]
        local = when + datetime.timedelta(hours=zone_offset_hours(place, when))
        folder = os.path.join(root, f"Photos from {when.year}")
        os.makedirs(folder, exist_ok=True)
        style = n % 7
        stem = {2: f"Screenshot_{n:05d}_of_a_conversation_in_a_messenger", 6: f"IMG_{n:05d}_PORTRAIT_BURST_COVER"}.get(style, f"IMG_{n:05d}")
        name = {3: f"{stem}(1).jpg", 5: f"{stem}-edited.jpg"}.get(style, f"{stem}.jpg")
        path = os.path.join(folder, name)
        shutil.copyfile(bases[n % len(bases)], path)
        has_json = n % 50 != 49 or style == 5
        kind = ("agrees", "disagrees", "none", "none")[n % 4] if has_json else "agrees"
        unique = ["-q", "-overwrite_original", "-all=", f"-ImageUniqueID={n:032x}"]
        dated = {"agrees": [local.strftime("-DateTimeOriginal=%Y:%m:%d %H:%M:%S")],
                 "disagrees": [local.replace(year=2003).strftime("-DateTimeOriginal=%Y:%m:%d %H:%M:%S")], "none": []}[kind]
        exif_args += unique + dated + [path, "-execute"]
        # Filed by its own date when it agrees, else by the JSON's instant in the zone at its place: the same month.
        expected.append((path, local.strftime("%Y/%m")))
        json_name = {0: f"{stem}.jpg.json", 1: f"{stem}.jpg.supplemental-metadata.json", 2: cut(f"{stem}.jpg") + ".json",
                     3: f"{stem}.jpg(1).json", 4: f"{stem}.json", 5: f"{stem}.jpg.json",
                     6: cut(f"{stem}.jpg.supplemental-metadata") + ".json"}[style]
        sidecar = {"title": f"{stem}.jpg", "photoTakenTime": {"timestamp": str(int(when.timestamp()))},
                   "creationTime": {"timestamp": str(int(EXPORT_DAY))}}
        if place:
            sidecar["geoData"] = {"latitude": place[0], "longitude": place[1], "altitude": 0.0}
        if has_json:
            with open(os.path.join(folder, json_name), "w") as f:
                json.dump(sidecar, f)
        if style == 5:  # the original beside its edited copy, sharing the JSON, with no date of its own
            original = os.path.join(folder, f"{stem}.jpg")
            shutil.copyfile(bases[(n + 1) % len(bases)], original)
            exif_args += ["-q", "-overwrite_original", "-all=", f"-ImageUniqueID=e{n:031x}", original, "-execute"]
            expected.append((original, local.strftime("%Y/%m")))
        if n % 10 == 0:
            album_copies.append((path, os.path.join(album, name), json_name if has_json else None, sidecar))
    with tempfile.NamedTemporaryFile("w", suffix=".args", delete=False) as f:
        f.write("\n".join(exif_args[:-1]))
    subprocess.run(["exiftool", "-@", f.name], check=True, stdout=subprocess.DEVNULL)
    os.unlink(f.name)
    for source, copy, json_name, sidecar in album_copies:
        shutil.copyfile(source, copy)
        if json_name:
            with open(os.path.join(album, json_name), "w") as f:
                json.dump(sidecar, f)
    with open(os.path.join(album, "metadata.json"), "w") as f:
        json.dump({"title": "Trip album"}, f)
    for folder, _, names in os.walk(out):
        for name in names:
            os.utime(os.path.join(folder, name), (EXPORT_DAY, EXPORT_DAY))
    with open(os.path.join(out, "expected.tsv"), "w") as f:
        for path, month in expected:
            f.write(f"{path}\t{month}\n")


if __name__ == "__main__":
    main()
