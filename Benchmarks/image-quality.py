#!/usr/bin/env python3
"""Perceptual quality of decoded images against their references, for the HEIC benchmarks.

    image-quality.py REF1 DEC1 [REF2 DEC2 ...]

Prints one SSIMULACRA2 score per pair, a line each (pip package `ssimulacra2`: 90 and above is
visually lossless, 70 high quality, 50 medium). Both images must have the same size. One process for many
pairs, so the interpreter and numpy start once.
"""
import sys

from ssimulacra2 import compute_ssimulacra2


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        sys.exit("usage: image-quality.py REF DEC [REF DEC ...]")
    for ref, dec in zip(argv[0::2], argv[1::2]):
        print(f"{compute_ssimulacra2(ref, dec):.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
