"""Tiny .npy writer/reader for the lit tests (float32 only; no numpy needed).

  npy.py write FILE 2x3 v0 v1 ...   write a float32 array of that shape
  npy.py read FILE                  print "f32 (2, 3): v0 v1 ..."
"""
import ast
import struct
import sys


def write(path, shape, values):
    dims = tuple(int(d) for d in shape.split("x")) if shape else ()
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % (repr(dims),)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *[float(v) for v in values]))


def read(path):
    data = open(path, "rb").read()
    (hlen,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + hlen].decode("latin1"))
    assert header["descr"] == "<f4", header
    count = 1
    for d in header["shape"]:
        count *= d
    values = struct.unpack("<%df" % count, data[10 + hlen:10 + hlen + 4 * count])
    shape = "(" + ", ".join(str(d) for d in header["shape"]) + ")"
    print("f32 %s: %s" % (shape, " ".join("%g" % v for v in values)))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        read(sys.argv[2])
