#!/usr/bin/env python3
"""Helper of metadata-carried.sh: which corpus photos carry user metadata or dates (select), and how
much of it exiftool reads back from the HEICs the import wrote (table)."""
import json, os, sqlite3, sys

# field: (the source's tags, most trusted first, as exiftool -G1 names them; the HEIC's tags)
FIELDS = {
    "rating": (["XMP-xmp:Rating"], ["XMP-xmp:Rating"]),
    "keywords": (["XMP-dc:Subject", "IPTC:Keywords"], ["XMP-dc:Subject"]),
    "title": (["XMP-dc:Title", "IPTC:ObjectName"], ["XMP-dc:Title"]),
    "description": (["XMP-dc:Description", "IPTC:Caption-Abstract"], ["XMP-dc:Description"]),
    "creator": (["XMP-dc:Creator", "IPTC:By-line"], ["XMP-dc:Creator"]),
    "people": (["XMP-iptcExt:PersonInImage", "XMP-mwg-rs:RegionName", "XMP-MP:RegionPersonDisplayName", "XMP-digiKam:TagsList"],
               ["XMP-iptcExt:PersonInImage", "XMP-mwg-rs:RegionName", "XMP-MP:RegionPersonDisplayName", "XMP-digiKam:TagsList"]),
}
DATES = ["ExifIFD:DateTimeOriginal", "XMP-exif:DateTimeOriginal", "XMP-xmp:CreateDate", "XMP-photoshop:DateCreated"]


def values(entry, tag):
    """A tag's values as a list of trimmed strings (exiftool gives a scalar or a list); [] when blank."""
    value = entry.get(tag)
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [str(v).strip() for v in items if str(v).strip()]


def expected(entry, tags):
    """What a field should read in the HEIC: the first source tag that has it (people: every tag)."""
    for tag in tags:
        found = values(entry, tag)
        if found:
            return found
    return []


def relative(corpus, source):
    return os.path.relpath(os.path.abspath(source), os.path.abspath(corpus))


def select(sources, corpus):
    for entry in json.load(open(sources)):
        if any(expected(entry, tags) for tags, _ in FIELDS.values()) or any(values(entry, t) for t in DATES + ["XMP-xmp:Rating"]):
            print(relative(corpus, entry["SourceFile"]))


def catalog_photos(library, roll):
    """Each imported original's catalog date and HEIC path, by path relative to the roll."""
    db = sqlite3.connect(os.path.join(library, ".darkroom", "catalog.sqlite"))
    photos = {}
    for content_hash, original, local, offset in db.execute(
            "SELECT content_hash, original_path, capture_local, capture_utc_offset FROM assets WHERE media_kind = 'photo'"):
        heics = [p for (p,) in db.execute("SELECT path FROM outputs WHERE subject = ? AND path LIKE '%.heic'", (content_hash,))]
        photos[os.path.relpath(original, roll)] = (local, offset, os.path.join(library, heics[0]) if heics else None)
    return photos


def date_reads(heic, local, offset):
    """Whether the HEIC carries the catalog's date in EXIF (and offset, fraction) and in the three XMP properties."""
    if not local:
        return False, "no catalog date"
    day, time = local.split("T")
    whole, _, fraction = time.partition(".")
    exif = day.replace("-", ":") + " " + whole
    text = day.replace("-", ":") + " " + whole + ("." + fraction.rstrip("0") if fraction.rstrip("0") else "")
    sign = "-" if offset is not None and offset < 0 else "+"
    zone = "" if offset is None else "%s%02d:%02d" % (sign, abs(offset) // 3600, abs(offset) % 3600 // 60)
    problems = []
    if values(heic, "ExifIFD:DateTimeOriginal") != [exif]:
        problems.append("EXIF DateTimeOriginal %s" % values(heic, "ExifIFD:DateTimeOriginal"))
    if zone and values(heic, "ExifIFD:OffsetTimeOriginal") != [zone]:
        problems.append("OffsetTimeOriginal %s" % values(heic, "ExifIFD:OffsetTimeOriginal"))
    if fraction.rstrip("0") and values(heic, "ExifIFD:SubSecTimeOriginal") != [fraction.rstrip("0")]:
        problems.append("SubSecTimeOriginal %s" % values(heic, "ExifIFD:SubSecTimeOriginal"))
    for tag in DATES[1:]:
        if values(heic, tag) != [text + zone]:
            problems.append("%s %s" % (tag, values(heic, tag)))
    return not problems, "; ".join(problems)


def table(sources, corpus, roll, library, heics_json):
    heics = {os.path.abspath(e["SourceFile"]): e for e in json.load(open(heics_json))}
    photos = catalog_photos(library, roll)
    selected = [e for e in json.load(open(sources)) if os.path.exists(os.path.join(roll, relative(corpus, e["SourceFile"])))]
    rows, misses = [], []
    for field, (source_tags, heic_tags) in FIELDS.items():
        carrying = [e for e in selected if expected(e, source_tags)]
        written = read = 0
        for entry in carrying:
            path = relative(corpus, entry["SourceFile"])
            heic = photos.get(path, (None, None, None))[2]
            if not heic:
                misses.append("%s: %s: no HEIC (the import failed or skipped it)" % (field, path))
                continue
            written += 1
            want = expected(entry, source_tags)
            got = [v for tag in heic_tags for v in values(heics.get(os.path.abspath(heic), {}), tag)] if field == "people" \
                else expected(heics.get(os.path.abspath(heic), {}), heic_tags)
            if (set(want) <= set(got)) if field == "people" else (got == want):
                read += 1
            else:
                misses.append("%s: %s: wanted %s, read %s" % (field, path, want, got))
        rows.append((field, len(carrying), written, read))
    dated = read = 0
    for path, (local, offset, heic) in sorted(photos.items()):
        if not heic:
            continue
        dated += 1
        ok, why = date_reads(heics.get(os.path.abspath(heic), {}), local, offset)
        read += ok
        if not ok:
            misses.append("capture date: %s: catalog %s %s: %s" % (path, local, offset, why))
    rows.append(("capture date (catalog's)", len(photos), dated, read))
    print("\n%-26s %18s %14s %22s" % ("field", "corpus photos", "HEICs written", "read back by exiftool"))
    for field, carrying, written, read in rows:
        print("%-26s %18d %14d %16d (%3.0f%%)" % (field, carrying, written, read, 100.0 * read / written if written else 0))
    print("\nmisses:" if misses else "\nno misses")
    for miss in misses:
        print("  " + miss)


if __name__ == "__main__":
    {"select": select, "table": table}[sys.argv[1]](*sys.argv[2:])
