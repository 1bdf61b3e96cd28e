#!/usr/bin/env python3
"""Makes a hand-held photo set from one real photo, for Benchmarks/align.sh.

    make-handheld-set.py BASE OUTPUT [--count 16] [--long-edge 2048] [--seed 23] [--no-subject]

Each photo is the middle 70 % of BASE (resized so that the photos have the long edge asked for), with a
textured subject that grows photo by photo (a disc low in the middle, from 3 % to 10 % of the width),
brightness scaled by 0.8-1.2, then shifted up to 6 % of the photo, turned up to 5 degrees and scaled by
0.92-1.08 about the middle, as a hand-held retake is (libvips' affine, bicubic). Writes OUTPUT/photo-NN.jpg
and OUTPUT/truth.json: for each photo its brightness, subject radius and the similarity from BASE's pixels
to the photo's (continuous pixel coordinates: pixel i covers [i, i+1)).
"""
import argparse
import json
import math
import os
import random
import subprocess
import tempfile

import numpy as np


def vips(*args):
    subprocess.run(["vips", *map(str, args)], check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("output")
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--long-edge", type=int, default=2048)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--no-subject", action="store_true", help="no growing subject (a portrait set for face alignment)")
    a = parser.parse_args()
    os.makedirs(a.output, exist_ok=True)
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        base_long = round(a.long_edge / 0.7)
        vips("thumbnail", a.base, f"{tmp}/base.v", base_long, "--size", "both")
        vips("rawsave", f"{tmp}/base.v", f"{tmp}/base.raw")
        header = subprocess.run(["vipsheader", "-a", f"{tmp}/base.v"], capture_output=True, text=True, check=True).stdout
        fields = dict(line.split(": ", 1) for line in header.splitlines() if ": " in line)
        bw, bh, bands = int(fields["width"]), int(fields["height"]), int(fields["bands"])
        base = np.fromfile(f"{tmp}/base.raw", dtype=np.uint8).reshape(bh, bw, bands)
        # A grey photo (one band, or two with alpha) gives its band to red, green and blue.
        base = (base[:, :, :3] if bands >= 3 else np.repeat(base[:, :, :1], 3, axis=2)).astype(np.float32)
        pw, ph = round(bw * 0.7), round(bh * 0.7)
        centre = (bw * 0.5, bh * 0.58)
        r0, r1 = 0.03 * bw, 0.10 * bw
        # The subject's texture: the photo turned upside down and tinted green, so it has features of its own.
        texture = base[::-1, ::-1] * np.array([0.6, 1.1, 0.5], dtype=np.float32)
        ys, xs = np.mgrid[0:bh, 0:bw].astype(np.float32)
        dist = np.hypot(xs + 0.5 - centre[0], ys + 0.5 - centre[1])
        truth = {"base": [bw, bh], "photo": [pw, ph], "subject_centre": list(centre), "photos": []}
        for i in range(a.count):
            radius = r0 + (r1 - r0) * i / max(1, a.count - 1)
            grow = r1 / radius * 0.5
            sx = np.clip(centre[0] + (xs - centre[0]) * grow, 0, bw - 1).astype(np.int32)
            sy = np.clip(centre[1] + (ys - centre[1]) * grow, 0, bh - 1).astype(np.int32)
            picture = base.copy()
            inside = (dist < radius) & (not a.no_subject)
            picture[inside] = texture[sy[inside], sx[inside]]
            ring = (dist >= radius) & (dist < radius + 0.006 * bw) & (not a.no_subject)
            picture[ring] = (30, 60, 20)
            brightness = rng.uniform(0.8, 1.2)
            picture = np.clip(picture * brightness, 0, 255).astype(np.uint8)
            picture.tofile(f"{tmp}/p.raw")
            scale = rng.uniform(0.92, 1.08)
            rotation = rng.uniform(-5, 5)
            shift = (rng.uniform(-0.06, 0.06) * pw, rng.uniform(-0.06, 0.06) * ph)
            c, s = math.cos(math.radians(rotation)) * scale, math.sin(math.radians(rotation)) * scale
            # p = S R (q - base centre) + photo centre + shift
            tx = pw / 2 + shift[0] - (c * bw / 2 - s * bh / 2)
            ty = ph / 2 + shift[1] - (s * bw / 2 + c * bh / 2)
            name = f"photo-{i + 1:02d}.jpg"
            vips("rawload", f"{tmp}/p.raw", f"{tmp}/p.v", bw, bh, 3)
            vips("copy", f"{tmp}/p.v", f"{tmp}/q.v", "--interpretation", "srgb")
            vips("affine", f"{tmp}/q.v", f"{tmp}/w.v", f"{c} {-s} {s} {c}", "--interpolate", "bicubic",
                 "--idx", 0.5, "--idy", 0.5, "--odx", tx - 0.5, "--ody", ty - 0.5, "--oarea", f"0 0 {pw} {ph}")
            vips("jpegsave", f"{tmp}/w.v", os.path.join(a.output, name), "--Q", 92)
            truth["photos"].append({"name": name, "brightness": brightness, "subject_radius": radius,
                                    "scale": scale, "rotation": rotation, "a": c, "b": s, "tx": tx, "ty": ty})
        with open(os.path.join(a.output, "truth.json"), "w") as f:
            json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
