#!/usr/bin/env python3
"""Residual background motion of an aligned hand-held set, for Benchmarks/align.sh.

    measure-motion.py truth TRUTH.json [TRANSFORMS.tsv] [--frame 1920x1080]
        Known points: background points of the base picture (the growing subject left out) are taken
        through each photo's true transform (TRUTH.json, from make-handheld-set.py) and then through
        the photo-to-frame transform of TRANSFORMS.tsv (align-benchmark's), or, without it, through the
        raw set's own placement (each photo scaled to cover the frame, centred). Prints the median over
        consecutive pairs of the median distance the points move between the two frames, and the largest.

    measure-motion.py subject TRUTH.json [TRANSFORMS.tsv] [--frame 1920x1080]
        Prints "X,Y,R": a disc of the frame around the growing subject as the first photo places it
        (raw placement, or TRANSFORMS.tsv's), enlarged by 60 % and 80 px, for --exclude.

    measure-motion.py frames FRAMES.gray --frame 1920x1080 [--exclude X,Y,R]
        Image-based, for results whose transforms are unknown (vidstab): FRAMES.gray is raw 8-bit grey
        frames (ffmpeg -pix_fmt gray -f rawvideo). Each consecutive pair is compared tile by tile (128 px,
        Hann window) by phase correlation with a sub-pixel peak; tiles in the disc X,Y,R (the subject),
        flat tiles and tiles touching a black border are left out; the pair's figure is the median tile
        displacement. Accurate for small motions (a few pixels), which is what it is for.
Prints "key: value" lines.
"""
import argparse
import csv
import json
import math

import numpy as np


def similarity(a, b, tx, ty):
    return np.array([[a, -b, tx], [b, a, ty]])


def from_scale_rotation(scale, rotation, dx, dy):
    r = math.radians(rotation)
    return similarity(scale * math.cos(r), scale * math.sin(r), dx, dy)


def apply(m, points):
    return points @ m[:, :2].T + m[:, 2]


def truth_mode(args):
    truth = json.load(open(args.truth))
    fw, fh = args.frame
    bw, bh = truth["base"]
    pw, ph = truth["photo"]
    cx, cy = truth["subject_centre"]
    r_max = max(p["subject_radius"] for p in truth["photos"])
    ys, xs = np.mgrid[0:bh:8, 0:bw:8]
    points = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], axis=1).astype(float)
    points = points[np.hypot(points[:, 0] - cx, points[:, 1] - cy) > r_max * 1.3]
    placement = placements(args, truth)
    frames = []
    for p in truth["photos"]:
        if p["name"] not in placement:
            continue
        to_photo = similarity(p["a"], p["b"], p["tx"], p["ty"])
        in_photo = apply(to_photo, points)
        visible = (in_photo[:, 0] >= 0) & (in_photo[:, 0] <= pw) & (in_photo[:, 1] >= 0) & (in_photo[:, 1] <= ph)
        frames.append((apply(placement[p["name"]], in_photo), visible))
    pair_medians = []
    for (f0, v0), (f1, v1) in zip(frames, frames[1:]):
        inside = v0 & v1 & (f0[:, 0] >= 0) & (f0[:, 0] < fw) & (f0[:, 1] >= 0) & (f0[:, 1] < fh)
        pair_medians.append(float(np.median(np.hypot(*(f1[inside] - f0[inside]).T))))
    report(pair_medians)


def placements(args, truth):
    fw, fh = args.frame
    pw, ph = truth["photo"]
    if args.transforms:
        rows = {r["name"]: r for r in csv.DictReader(open(args.transforms), delimiter="\t")}
        return {n: from_scale_rotation(float(r["scale"]), float(r["rotation"]), float(r["dx"]), float(r["dy"]))
                for n, r in rows.items()}
    k = max(fw / pw, fh / ph)
    raw = similarity(k, 0, (fw - pw * k) / 2, (fh - ph * k) / 2)
    return {p["name"]: raw for p in truth["photos"]}


def subject_mode(args):
    truth = json.load(open(args.input))
    first = truth["photos"][0]
    placement = placements(args, truth)[first["name"]]
    to_photo = similarity(first["a"], first["b"], first["tx"], first["ty"])
    centre = apply(placement, apply(to_photo, np.array([truth["subject_centre"]], dtype=float)))[0]
    scale = math.hypot(*placement[:, 0]) * math.hypot(first["a"], first["b"])
    radius = max(p["subject_radius"] for p in truth["photos"]) * scale * 1.6 + 80
    print(f"{centre[0]:.0f},{centre[1]:.0f},{radius:.0f}")


def phase_shift(a, b, window):
    fa, fb = np.fft.fft2(a * window), np.fft.fft2(b * window)
    cross = fa * np.conj(fb)
    cross /= np.abs(cross) + 1e-9
    corr = np.real(np.fft.ifft2(cross))
    n = corr.shape[0]
    y, x = np.unravel_index(np.argmax(corr), corr.shape)

    def sub(c_m, c_0, c_p):
        d = c_m - 2 * c_0 + c_p
        return 0.0 if abs(d) < 1e-12 else 0.5 * (c_m - c_p) / d

    dy = y + sub(corr[(y - 1) % n, x], corr[y, x], corr[(y + 1) % n, x])
    dx = x + sub(corr[y, (x - 1) % n], corr[y, x], corr[y, (x + 1) % n])
    dx = dx - n if dx > n / 2 else dx
    dy = dy - n if dy > n / 2 else dy
    return dx, dy, corr[y, x]


def frames_mode(args):
    fw, fh = args.frame
    data = np.fromfile(args.frames, dtype=np.uint8)
    count = data.size // (fw * fh)
    frames = data[: count * fw * fh].reshape(count, fh, fw).astype(np.float32)
    tile = 128
    window = np.outer(np.hanning(tile), np.hanning(tile))
    ex = [float(v) for v in args.exclude.split(",")] if args.exclude else None
    pair_medians = []
    for i in range(count - 1):
        a, b = frames[i], frames[i + 1]
        shifts = []
        for y in range(0, fh - tile + 1, tile // 2):
            for x in range(0, fw - tile + 1, tile // 2):
                if ex and math.hypot(x + tile / 2 - ex[0], y + tile / 2 - ex[1]) < ex[2] + tile * 0.7:
                    continue
                ta, tb = a[y:y + tile, x:x + tile], b[y:y + tile, x:x + tile]
                if ta.min() < 2 and (ta < 2).mean() > 0.01 or tb.min() < 2 and (tb < 2).mean() > 0.01:
                    continue  # a black border
                if ta.std() < 4 or tb.std() < 4:
                    continue  # too flat to measure
                dx, dy, peak = phase_shift(ta - ta.mean(), tb - tb.mean(), window)
                if peak > 0.05:
                    shifts.append(math.hypot(dx, dy))
        if shifts:
            pair_medians.append(float(np.median(shifts)))
    report(pair_medians)


def report(pair_medians):
    print(f"pairs: {len(pair_medians)}")
    print(f"median_px: {np.median(pair_medians):.3f}")
    print(f"max_pair_px: {max(pair_medians):.3f}")
    print("pairs_px: " + " ".join(f"{v:.2f}" for v in pair_medians))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["truth", "frames", "subject"])
    parser.add_argument("input")
    parser.add_argument("transforms", nargs="?")
    parser.add_argument("--frame", default="1920x1080")
    parser.add_argument("--exclude")
    args = parser.parse_args()
    args.frame = tuple(int(v) for v in args.frame.split("x"))
    if args.mode == "subject":
        subject_mode(args)
    elif args.mode == "truth":
        args.truth = args.input
        truth_mode(args)
    else:
        args.frames = args.input
        frames_mode(args)


if __name__ == "__main__":
    main()
