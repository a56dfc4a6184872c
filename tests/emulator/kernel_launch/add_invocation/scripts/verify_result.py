#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Compares output and golden fp16 files: relative tolerance 1e-3 per element, at most 0.1% of the
elements off. Prints "test pass" or "[ERROR] ..." and exits 0 or 1."""
import struct
import sys


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack("<%de" % (len(data) // 2), data)


def main():
    out, gold = load(sys.argv[1]), load(sys.argv[2])
    if len(out) != len(gold):
        print("[ERROR] output has %d elements, golden has %d" % (len(out), len(gold)))
        return 1
    bad = sum(1 for o, g in zip(out, gold) if abs(o - g) > 1e-3 * abs(g) + 1e-5)
    if bad > len(gold) * 1e-3:
        print("[ERROR] %d of %d elements differ" % (bad, len(gold)))
        return 1
    print("test pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
