#!/usr/bin/env python3
"""Writes the large DNGs Benchmarks/raw.sh measures (not shipped).

    make-raw-dng.py OUT.dng --width 9504 --height 6336
        a Bayer (RGGB, 14-bit values in 16-bit samples, uncompressed) DNG written by PiDNG (PyPI
        `pidng`) from a generated scene: sky and ground gradients, coloured discs and sensor noise, so
        that demosaicing has edges to work on. (PiDNG 4.0.9's lossless-JPEG option fails on Python
        3.11: its C extension lacks PY_SSIZE_T_CLEAN.)
    make-raw-dng.py OUT.dng --add-preview PREVIEW.jpg
        appends PREVIEW.jpg as a JPEG preview (a second IFD, NewSubFileType 1, compression 7), as
        cameras embed one (PiDNG writes the raw image only).
"""
import argparse
import struct

import numpy as np


def scene(width, height, seed=22):
    """Linear RGB in 0..1, (height, width, 3) float32: gradients, discs, noise."""
    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, height, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, width, dtype=np.float32)[None, :]
    sky = np.stack([0.25 + 0.2 * x + 0 * y, 0.35 + 0.1 * x + 0 * y, 0.6 - 0.2 * y + 0 * x], axis=-1)
    ground = np.stack([0.3 + 0 * x + 0.1 * y, 0.25 + 0.15 * y + 0 * x, 0.1 + 0 * x + 0 * y], axis=-1)
    rgb = np.where((y > 0.55)[..., None], ground, sky).astype(np.float32)
    colours = [(0.8, 0.1, 0.1), (0.1, 0.7, 0.15), (0.1, 0.15, 0.8), (0.85, 0.75, 0.1), (0.9, 0.9, 0.9)]
    for index, colour in enumerate(colours):
        cx, cy, r = (index + 1) / 6, 0.3 + 0.4 * (index % 2), 0.06
        mask = ((x - cx) * width) ** 2 + ((y - cy) * height) ** 2 < (r * height) ** 2
        rgb[mask] = colour
    rgb += rng.normal(0, 0.01, size=(height, 1, 1)).astype(np.float32)
    return rgb


def mosaic(rgb, white):
    """RGGB Bayer samples (uint16), plus shot noise."""
    height, width, _ = rgb.shape
    cfa = np.empty((height, width), dtype=np.float32)
    cfa[0::2, 0::2] = rgb[0::2, 0::2, 0]
    cfa[0::2, 1::2] = rgb[0::2, 1::2, 1]
    cfa[1::2, 0::2] = rgb[1::2, 0::2, 1]
    cfa[1::2, 1::2] = rgb[1::2, 1::2, 2]
    noise = np.random.default_rng(7).normal(0, 0.004, size=(height, width)).astype(np.float32)
    return np.clip((cfa + noise) * white, 0, white).astype(np.uint16)


def write_dng(path, width, height):
    from pidng.core import RAW2DNG, DNGTags, Tag
    from pidng.defs import CalibrationIlluminant, CFAPattern, DNGVersion, PhotometricInterpretation, PreviewColorSpace

    white = (1 << 14) - 1
    samples = mosaic(scene(width, height), white)
    # XYZ (D65) to linear sRGB as ColorMatrix1: the "camera" space is linear sRGB.
    xyz_to_srgb = [3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108, 0.0415560, 0.0556434, -0.2040259, 1.0572252]
    tags = DNGTags()
    tags.set(Tag.ImageWidth, width)
    tags.set(Tag.ImageLength, height)
    tags.set(Tag.TileWidth, width)
    tags.set(Tag.TileLength, height)
    tags.set(Tag.Orientation, 1)
    tags.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
    tags.set(Tag.SamplesPerPixel, 1)
    tags.set(Tag.BitsPerSample, 16)
    tags.set(Tag.CFARepeatPatternDim, [2, 2])
    tags.set(Tag.CFAPattern, CFAPattern.RGGB)
    tags.set(Tag.BlackLevel, 0)
    tags.set(Tag.WhiteLevel, white)
    tags.set(Tag.ColorMatrix1, [(int(v * 10000), 10000) for v in xyz_to_srgb])
    tags.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
    tags.set(Tag.AsShotNeutral, [[1, 1], [1, 1], [1, 1]])
    tags.set(Tag.BaselineExposure, [[0, 1]])
    tags.set(Tag.Make, "Darkroom")
    tags.set(Tag.Model, f"Benchmark {width}x{height}")
    tags.set(Tag.DNGVersion, DNGVersion.V1_4)
    tags.set(Tag.DNGBackwardVersion, DNGVersion.V1_2)
    tags.set(Tag.PreviewColorSpace, PreviewColorSpace.sRGB)
    converter = RAW2DNG()
    converter.options(tags, path="", compress=False)
    converter.convert(samples, filename=path)


def add_preview(path, jpeg_path):
    """Appends the JPEG and an IFD describing it, and links IFD0's next-IFD pointer to it."""
    with open(jpeg_path, "rb") as f:
        jpeg = f.read()
    width, height = jpeg_size(jpeg)
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        assert data[:4] == b"II*\x00", "PiDNG writes little-endian TIFF"
        ifd0 = struct.unpack_from("<I", data, 4)[0]
        count = struct.unpack_from("<H", data, ifd0)[0]
        next_pointer = ifd0 + 2 + 12 * count
        if len(data) % 2:
            data += b"\x00"
        jpeg_at = len(data)
        data += jpeg
        if len(data) % 2:
            data += b"\x00"
        ifd_at = len(data)
        entries = [(254, 4, 1, 1), (256, 4, 1, width), (257, 4, 1, height), (259, 3, 1, 7), (262, 3, 1, 6),
                   (273, 4, 1, jpeg_at), (277, 3, 1, 3), (278, 4, 1, height), (279, 4, 1, len(jpeg))]
        data += struct.pack("<H", len(entries))
        for tag, kind, n, value in entries:
            data += struct.pack("<HHI", tag, kind, n) + (struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value))
        data += struct.pack("<I", 0)
        struct.pack_into("<I", data, next_pointer, ifd_at)
        f.seek(0)
        f.write(data)


def jpeg_size(jpeg):
    at = 2
    while at + 9 < len(jpeg):
        marker, length = jpeg[at + 1], struct.unpack_from(">H", jpeg, at + 2)[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack_from(">HH", jpeg, at + 5)
            return width, height
        at += 2 + length
    raise ValueError("no JPEG frame header")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--width", type=int, default=9504)
    parser.add_argument("--height", type=int, default=6336)
    parser.add_argument("--add-preview")
    args = parser.parse_args()
    if args.add_preview:
        add_preview(args.out, args.add_preview)
    else:
        write_dng(args.out, args.width, args.height)


if __name__ == "__main__":
    main()
