#!/usr/bin/env python3
"""Compares DarkroomTimeZones with timezonefinder (the reference) on the same random points.

    timezones-compare.py LOOKUP_BINARY [--points N] [--border-points M] [--seed S]

Draws N points spread evenly over the sphere, asks timezonefinder (full polygons, no
simplification) and `LOOKUP_BINARY lookup` (DarkroomTimeZones) for each, and prints the agreement on
all points and on land points (timezonefinder's answer not an Etc/ zone). For every disagreement
it measures how far the point lies from the border of timezonefinder's zone, on timezonefinder's own
polygons, so the figures say whether the misses are all near borders. Then M points near borders
(random vertices of timezonefinder's polygons moved up to 2 km in a random direction) give the
agreement by distance from the border. Also prints timezonefinder's
load time and cost per lookup, for the ratio with Darkroom's. Needs timezonefinder,
timezonefinder-data and shapely (Benchmarks/timezones.sh installs them into a virtual environment).
"""

import argparse
import math
import subprocess
import time

import numpy as np
import shapely
from timezonefinder import TimezoneFinder

METRES_PER_DEGREE = 111_195  # a degree of a great circle on the mean Earth (radius 6371 km)
WINDOW = 0.1  # degrees around a point searched for a border; farther borders count as "over 10 km"


def random_points(count: int, seed: int) -> np.ndarray:
    """Latitude, longitude rows, evenly spread over the sphere."""
    rng = np.random.default_rng(seed)
    latitudes = np.degrees(np.arcsin(rng.uniform(-1, 1, count)))
    longitudes = rng.uniform(-180, 180, count)
    return np.column_stack([latitudes, longitudes])


def darkroom_answers(binary: str, points: np.ndarray) -> list[str]:
    """The zones DarkroomTimeZones gives, from one run of the lookup binary."""
    text = "\n".join(f"{lat!r} {lng!r}" for lat, lng in points.tolist()) + "\n"
    result = subprocess.run([binary, "lookup"], input=text, capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


class Borders:
    """Distances from points to the borders of timezonefinder's zones (full resolution)."""

    def __init__(self, finder: TimezoneFinder):
        self.finder = finder
        self.outlines = {}

    def outline(self, zone: str):
        if zone not in self.outlines:
            polygons = [shapely.Polygon(np.column_stack(rings[0]), [np.column_stack(r) for r in rings[1:]])
                        for rings in self.finder.get_geometry(tz_name=zone)]
            self.outlines[zone] = shapely.boundary(shapely.MultiPolygon(polygons))
        return self.outlines[zone]

    def metres(self, zone: str, lat: float, lng: float) -> float:
        """Distance to the zone's nearest border, or infinity when none is within WINDOW degrees."""
        near = shapely.clip_by_rect(self.outline(zone), lng - WINDOW, lat - WINDOW, lng + WINDOW, lat + WINDOW)
        if near.is_empty:
            return math.inf
        scale = math.cos(math.radians(lat))
        local = shapely.transform(near, lambda c: (c - [lng, lat]) * [scale, 1.0])
        return shapely.distance(local, shapely.Point(0, 0)) * METRES_PER_DEGREE


def border_points(finder: TimezoneFinder, count: int, seed: int) -> np.ndarray:
    """Latitude, longitude rows within 2 km of random vertices of the zones' polygons."""
    rng = np.random.default_rng(seed + 1)
    sizes = np.array([finder.coords_of(i).shape[1] for i in range(finder.nr_of_polygons)])
    polygons = rng.choice(len(sizes), size=count, p=sizes / sizes.sum())
    rows = []
    for polygon in polygons.tolist():
        coords = finder.coords_of(polygon)
        lng, lat = coords[:, rng.integers(coords.shape[1])] / 1e7
        metres, bearing = rng.uniform(0, 2000), rng.uniform(0, 2 * math.pi)
        lat = float(np.clip(lat + metres * math.cos(bearing) / METRES_PER_DEGREE, -90, 90))
        scale = max(math.cos(math.radians(lat)), 1e-6)
        lng = (lng + metres * math.sin(bearing) / METRES_PER_DEGREE / scale + 540) % 360 - 180
        rows.append((lat, lng))
    return np.array(rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("lookup_binary")
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--border-points", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()

    start = time.perf_counter()
    finder = TimezoneFinder()
    load_seconds = time.perf_counter() - start
    print(f"reference: timezonefinder, data {finder.data_version}; load {load_seconds * 1000:.1f} ms")

    points = random_points(arguments.points, arguments.seed)
    start = time.perf_counter()
    reference = [finder.timezone_at(lat=lat, lng=lng) for lat, lng in points.tolist()]
    per_lookup = (time.perf_counter() - start) / len(points)
    print(f"reference_lookup_mean_ns: {per_lookup * 1e9:.0f}")

    ours = darkroom_answers(arguments.lookup_binary, points)
    assert len(ours) == len(points), "the lookup binary answered a different number of points"

    borders = Borders(finder)
    land = [not zone.startswith("Etc/") for zone in reference]
    misses = [(i, reference[i], ours[i]) for i in range(len(points)) if ours[i] != reference[i]]
    land_misses = [m for m in misses if land[m[0]]]
    n_land = sum(land)
    print(f"points: {len(points)} ({n_land} on land)")
    print(f"agreement_all: {1 - len(misses) / len(points):.6%} ({len(misses)} differ)")
    print(f"agreement_land: {1 - len(land_misses) / n_land:.6%} ({len(land_misses)} differ)")

    distances = []
    for index, theirs, mine in misses:
        lat, lng = points[index]
        distances.append((borders.metres(theirs, lat, lng), lat, lng, theirs, mine))
    distances.sort()
    buckets = [(0, 50), (50, 100), (100, 250), (250, 1000), (1000, math.inf)]
    counts = ", ".join(f"{lo}-{hi} m: {sum(lo <= d[0] < hi for d in distances)}" for lo, hi in buckets)
    print(f"disagreements by distance from the border: {counts}")
    if distances:
        print(f"farthest_disagreement_m: {distances[-1][0]:.0f}")
    for metres, lat, lng, theirs, mine in distances:
        if metres >= 1000:
            print(f"  over 1 km: ({lat:.5f}, {lng:.5f}) {metres:.0f} m: timezonefinder {theirs}, Darkroom {mine}")
    print(f"agreement_over_1km_from_border: "
          f"{sum(d[0] >= 1000 for d in distances)} disagreements among points over 1 km from a border")

    near = border_points(finder, arguments.border_points, arguments.seed)
    reference = [finder.timezone_at(lat=lat, lng=lng) for lat, lng in near.tolist()]
    ours = darkroom_answers(arguments.lookup_binary, near)
    bands = [(0, 25), (25, 50), (50, 100), (100, 250), (250, 500), (500, 1000), (1000, math.inf)]
    tally = {band: [0, 0] for band in bands}
    for (lat, lng), theirs, mine in zip(near.tolist(), reference, ours):
        metres = borders.metres(theirs, lat, lng)
        band = next(b for b in bands if b[0] <= metres < b[1] or b[1] == math.inf)
        tally[band][0] += 1
        tally[band][1] += theirs == mine
    print(f"near borders ({len(near)} points within 2 km of a polygon vertex), agreement by distance from the border:")
    for (lo, hi), (total, agreed) in tally.items():
        if total:
            print(f"  {lo}-{hi} m: {agreed}/{total} = {agreed / total:.2%}")


if __name__ == "__main__":
    main()

