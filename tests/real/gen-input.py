#!/usr/bin/env python3
"""Inputs of the corpus programs, generated (deterministically) rather than committed.

  gen-input.py points FILE N      N (x, y) points of Phoenix linear_regression: 2 signed bytes each
  gen-input.py bmp FILE W H       a 24-bit bitmap for Phoenix histogram, W x H pixels

The points are uniform. The bitmap is a photograph-like mix: a quarter of the pixels are white
(255, 255, 255), a quarter black (0, 0, 0), the rest uniform; saturated pixels are what makes the
first and last bins of each histogram hot, and those are the bins that share a cache line with
the next thread's element of the array (see README.md, phoenix-histogram).
"""
import random
import struct
import sys


def points(path, n):
    rnd = random.Random(14)
    with open(path, "wb") as f:
        f.write(rnd.randbytes(2 * n))


def bmp(path, w, h):
    rnd = random.Random(14)
    row = w * 3
    pad = (4 - row % 4) % 4
    size = 54 + (row + pad) * h
    header = b"BM" + struct.pack("<IHHI", size, 0, 0, 54)
    header += struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, size - 54, 2835, 2835, 0, 0)
    rnd_bytes = rnd.randbytes(w * h * 4)
    with open(path, "wb") as f:
        f.write(header)
        for y in range(h):
            line = bytearray(rnd_bytes[y * w * 4:(y + 1) * w * 4])
            del line[3::4]
            for x in range(w):
                kind = line[3 * x] & 3  # the pixel's own random byte picks its kind
                if kind < 2:
                    line[3 * x:3 * x + 3] = b"\xff\xff\xff" if kind else b"\0\0\0"
            f.write(bytes(line) + bytes(pad))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "points" and len(sys.argv) == 4:
        points(path, int(sys.argv[3]))
    elif kind == "bmp" and len(sys.argv) == 5:
        bmp(path, int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
