#!/usr/bin/env python3
"""Builds Sources/DarkroomTimeZones/Resources/timezones.bin, the time-zone map DarkroomTimeZones reads.

The source is timezone-boundary-builder's "with oceans" release as the PyPI package
timezonefinder-data ships it (ODbL: see Sources/DarkroomTimeZones/Resources/NOTICE.md). Every
zone's polygons are simplified (Douglas-Peucker, --tolerance degrees, topology preserved), cut
into 1-degree cells, and stored per cell: where zones overlap (timezone-boundary-builder allows
that where two zones are in use or a border is disputed), each overlapping piece goes to the zone
timezonefinder answers there. A cell that meets one zone is just that zone's number;
a cell that meets several stores, for each zone, the pieces of its polygons inside the cell, as
rings of points quantised to 1/--quantum of a degree from the cell's south-west corner.

Run it in a virtual environment with the pinned packages (the numbers in the output depend on them):

    python3 -m venv /tmp/tzdata-venv
    /tmp/tzdata-venv/bin/pip install timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1 shapely==2.2.0
    /tmp/tzdata-venv/bin/python scripts/make-timezone-data.py   # scripts/make-timezone-map.sh does all this

It takes about a minute on two cores (zones are read and tiles encoded on every core) and prints the cells, vertices and bytes it wrote.

File layout (little-endian; Sources/DarkroomTimeZones/TimeZoneMapFile.swift reads it):

    header, 40 bytes:
      magic "DRTZ", u16 format version (1), u16 columns (360), u16 rows (180),
      u16 quantum (steps per degree inside a cell), u16 zone count, u16 reserved (0),
      u32 names length, u32 payload length, 16 bytes data version (ASCII, NUL-padded)
    zone names: each UTF-8, followed by one NUL
    cell table: rows x columns u32, row-major from (-90, -180) north- and eastwards;
      bit 31 set: the cell lies in one zone, the low bits are its number;
      bit 31 clear: the byte offset of the cell's entry in the payload
    payload, one entry per shared cell:
      varint zone count, then for each zone (cheapest to test first):
        varint zone number, 4 varints bounding box (min x, min y, max x, max y in steps),
        varint byte length of what follows up to the next zone,
        varint ring count, then each ring: varint vertex count, then per vertex the zigzag varints
        of dx and dy from the previous vertex (the first from the cell's corner); a ring is closed
        implicitly. A point is in the zone when a ray from it crosses the zone's rings an odd
        number of times.
"""

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np
import shapely
from shapely import box

try:
    from timezonefinder import TimezoneFinder
except ImportError:
    sys.exit("make-timezone-data.py: needs timezonefinder and timezonefinder-data (see the docstring)")

MAGIC = b"DRTZ"
FORMAT_VERSION = 1
COLUMNS, ROWS = 360, 180
TILE = 10  # degrees: polygons are cut into tiles first, then each tile into its cells
SINGLE_ZONE = 0x8000_0000

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "Sources/DarkroomTimeZones/Resources/timezones.bin"


# What the forked workers share, set before they fork (timezonefinder, the parts and their tree).
SHARED = {}


def varint(value: int, out: bytearray) -> None:
    """Appends an unsigned LEB128 varint."""
    if value < 0:
        raise ValueError(f"varint of a negative number {value}")
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def zigzag(value: int) -> int:
    """Maps signed to unsigned: 0, -1, 1, -2 ... to 0, 1, 2, 3 ..."""
    return value * 2 if value >= 0 else -value * 2 - 1


def zone_geometry(zone: int):
    """One zone's multipolygon as timezonefinder stores it, simplified (topology preserved)."""
    polygons = []
    for rings in SHARED["finder"].get_geometry(tz_id=zone, use_id=True):
        shell, *holes = [np.column_stack(ring) for ring in rings]
        polygons.append(shapely.Polygon(shell, holes))
    return shapely.simplify(shapely.MultiPolygon(polygons), SHARED["tolerance"], preserve_topology=True)


def load_zones(tolerance: float) -> tuple[TimezoneFinder, list[str], np.ndarray]:
    """timezonefinder, and every zone's name and simplified multipolygon (zones read on every core:
    timezonefinder's polygons take most of a minute to read on one)."""
    finder = TimezoneFinder()
    names = list(finder.timezone_names)
    SHARED.update(finder=finder, tolerance=tolerance)
    with multiprocessing.get_context("fork").Pool(os.cpu_count()) as pool:
        geometries = pool.map(zone_geometry, range(len(names)), chunksize=4)
    return finder, names, np.array(geometries)


def quantised_rings(geometry, corner: tuple[int, int], quantum: int) -> list[np.ndarray]:
    """The rings of a cell's piece of one zone, in steps from the cell's corner, without repeated points."""
    rings = []
    for polygon in shapely.get_parts(geometry):
        if polygon.geom_type != "Polygon" or polygon.area == 0:
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            points = np.rint((np.asarray(ring.coords)[:-1] - corner) * quantum).astype(np.int64)
            points = points[np.any(points != np.roll(points, 1, axis=0), axis=1)]
            if len(points) >= 3:
                rings.append(points)
    return rings


def encode_zone(zone: int, rings: list[np.ndarray], out: bytearray) -> None:
    """Appends one zone's entry of a shared cell."""
    varint(zone, out)
    everything = np.vstack(rings)
    for bound in (*everything.min(axis=0), *everything.max(axis=0)):
        varint(int(bound), out)
    body = bytearray()
    varint(len(rings), body)
    for ring in rings:
        varint(len(ring), body)
        deltas = np.diff(ring, axis=0, prepend=[[0, 0]])
        for dx, dy in deltas.tolist():
            varint(zigzag(dx), body)
            varint(zigzag(dy), body)
    varint(len(body), out)
    out += body


def resolve_overlaps(pieces_by_zone: dict, finder: TimezoneFinder, names: list[str]) -> int:
    """Makes a cell's zones disjoint; returns how many overlapping pieces it settled.

    timezone-boundary-builder lets zones overlap where two are in use (Asia/Urumqi lies inside
    Asia/Shanghai) or a border is disputed, and simplification makes slivers of overlap along every
    border. Each overlapping piece goes to the zone timezonefinder answers at a point inside it,
    and is cut out of the other.
    """
    settled = 0
    zones = sorted(pieces_by_zone)
    for index, first in enumerate(zones):
        for second in zones[index + 1:]:
            shared = shapely.intersection(pieces_by_zone[first], pieces_by_zone[second])
            lost_by = {first: [], second: []}
            for part in shapely.get_parts(shared):
                if part.geom_type != "Polygon" or part.area == 0:
                    continue
                inside = part.point_on_surface()
                answer = finder.timezone_at(lng=inside.x, lat=inside.y)
                lost_by[first if answer == names[second] else second].append(part)
                settled += 1
            for zone, parts in lost_by.items():
                if parts:
                    pieces_by_zone[zone] = shapely.difference(pieces_by_zone[zone], shapely.union_all(parts))
    return settled


def encode_cell(x: int, y: int, pieces, piece_zone, piece_tree, finder: TimezoneFinder, names, quantum: int):
    """One cell: (its single zone, None) or (None, its payload entry), with its vertex and overlap counts."""
    cell = box(x, y, x + 1, y + 1)
    near = piece_tree.query(cell, predicate="intersects")
    clipped = shapely.intersection(pieces[near], cell)
    inside = shapely.area(clipped) > 0
    clipped, zones = clipped[inside], piece_zone[near][inside]
    pieces_by_zone = {zone: shapely.union_all(clipped[zones == zone]) for zone in set(zones.tolist())}
    overlaps = resolve_overlaps(pieces_by_zone, finder, names)
    rings_by_zone = {}
    for zone in sorted(pieces_by_zone):
        rings = quantised_rings(pieces_by_zone[zone], (x, y), quantum)
        if rings:
            rings_by_zone[zone] = rings
    if not rings_by_zone:
        raise SystemExit(f"cell ({x}, {y}) lies in no zone: the data should cover the Earth")
    if len(rings_by_zone) == 1:
        return next(iter(rings_by_zone)), None, 0, overlaps
    order = sorted(rings_by_zone, key=lambda z: sum(len(r) for r in rings_by_zone[z]))
    entry = bytearray()
    varint(len(order), entry)
    for zone in order:
        encode_zone(zone, rings_by_zone[zone], entry)
    return None, bytes(entry), sum(len(r) for zone in order for r in rings_by_zone[zone]), overlaps


def encode_tile_row(tile_y: int) -> list:
    """Every cell of the tiles from latitude tile_y to tile_y + TILE, in the order the payload keeps:
    tile by tile westwards to eastwards, each tile's cells row by row."""
    parts, part_zone, tree = SHARED["parts"], SHARED["part_zone"], SHARED["tree"]
    cells = []
    for tile_x in range(-180, 180, TILE):
        tile = box(tile_x, tile_y, tile_x + TILE, tile_y + TILE)
        hits = tree.query(tile, predicate="intersects")
        pieces, piece_zone = shapely.intersection(parts[hits], tile), part_zone[hits]
        piece_tree = shapely.STRtree(pieces)
        for y in range(tile_y, tile_y + TILE):
            for x in range(tile_x, tile_x + TILE):
                cells.append(((y + 90) * COLUMNS + (x + 180),
                              *encode_cell(x, y, pieces, piece_zone, piece_tree, SHARED["finder"], SHARED["names"], SHARED["quantum"])))
    return cells


def build(names, geometries, finder: TimezoneFinder, quantum: int):
    """The cell table and the payload; counts for the summary. Rows of tiles are encoded on every
    core (forked workers), then laid out in order: the file does not depend on the number of cores."""
    parts, part_zone = [], []
    for zone, geometry in enumerate(geometries):
        for part in shapely.get_parts(geometry):
            parts.append(part)
            part_zone.append(zone)
    parts, part_zone = np.array(parts), np.array(part_zone)
    SHARED.update(parts=parts, part_zone=part_zone, tree=shapely.STRtree(parts), finder=finder, names=names, quantum=quantum)

    table = np.zeros(ROWS * COLUMNS, dtype="<u4")
    payload = bytearray()
    shared_cells = vertices = most_vertices = overlaps = 0
    with multiprocessing.get_context("fork").Pool(os.cpu_count()) as pool:
        rows = pool.map(encode_tile_row, range(-90, 90, TILE), chunksize=1)
    for cells in rows:
        for cell_index, single_zone, entry, cell_vertices, cell_overlaps in cells:
            overlaps += cell_overlaps
            if entry is None:
                table[cell_index] = SINGLE_ZONE | single_zone
                continue
            table[cell_index] = len(payload)
            payload += entry
            shared_cells += 1
            vertices += cell_vertices
            most_vertices = max(most_vertices, cell_vertices)
    return table, bytes(payload), shared_cells, vertices, most_vertices, overlaps


def write(path: Path, names, version: str, quantum: int, table: np.ndarray, payload: bytes) -> None:
    """Writes the file (to a temporary name, then renamed into place)."""
    name_bytes = b"".join(name.encode("utf-8") + b"\0" for name in names)
    version_bytes = version.encode("ascii")
    if len(version_bytes) > 16 or len(names) >= 0xFFFF or quantum > 0xFFFF:
        raise SystemExit("the data does not fit the header")
    header = MAGIC + np.array(
        [FORMAT_VERSION, COLUMNS, ROWS, quantum, len(names), 0], dtype="<u2"
    ).tobytes() + np.array([len(name_bytes), len(payload)], dtype="<u4").tobytes() + version_bytes.ljust(16, b"\0")
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(header + name_bytes + table.tobytes() + payload)
    temporary.replace(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--tolerance", type=float, default=0.0005,
                        help="Douglas-Peucker tolerance in degrees (default 0.0005, about 55 m)")
    parser.add_argument("--quantum", type=int, default=8192,
                        help="steps per degree inside a cell (default 8192, about 14 m of latitude)")
    arguments = parser.parse_args()

    start = time.time()
    finder, names, geometries = load_zones(arguments.tolerance)
    table, payload, shared_cells, vertices, most_vertices, overlaps = build(names, geometries, finder, arguments.quantum)
    version = finder.data_version
    write(arguments.output, names, version, arguments.quantum, table, payload)
    single_cells = ROWS * COLUMNS - shared_cells
    print(f"{arguments.output}: {arguments.output.stat().st_size:,} bytes, data {version}, {len(names)} zones; "
          f"{single_cells:,} cells in one zone, {shared_cells:,} shared ({vertices:,} vertices, "
          f"at most {most_vertices:,} in a cell); {overlaps:,} overlapping pieces settled; {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
