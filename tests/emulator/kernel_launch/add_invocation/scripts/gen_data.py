#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Inputs of add_custom: two fp16 vectors of 8 * 2048 elements and their sum, as raw .bin files
(standard library only: struct's 'e' format is IEEE half)."""
import os
import random
import struct

N = 8 * 2048


def main():
    rng = random.Random(12)
    x = [struct.unpack("<e", struct.pack("<e", rng.uniform(1, 100)))[0] for _ in range(N)]
    y = [struct.unpack("<e", struct.pack("<e", rng.uniform(1, 100)))[0] for _ in range(N)]
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    with open("input/input_x.bin", "wb") as f:
        f.write(struct.pack("<%de" % N, *x))
    with open("input/input_y.bin", "wb") as f:
        f.write(struct.pack("<%de" % N, *y))
    with open("output/golden.bin", "wb") as f:
        f.write(struct.pack("<%de" % N, *[a + b for a, b in zip(x, y)]))


if __name__ == "__main__":
    main()
