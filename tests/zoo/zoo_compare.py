#!/usr/bin/python3
"""zoo_compare.py MODEL REF_DIR GOT_DIR [DATA_DIR]: compares the .npy outputs a bundle wrote (GOT_DIR) with the
golden model's (REF_DIR), and, when DATA_DIR holds output_<k>.pb (models/make_zoo.py's numpy float64 forward),
the golden model's with those. Passes when |got - ref| <= 1e-4 * |ref| + 1e-5 * max|ref| everywhere (and every
value is finite): both sides of the first comparison are float32 and differ only in the order of their sums; the
float64 forward differs from a float32 pipeline by its rounding (about 6e-8 relative per operation, growing with
the depth), far below that. Prints one line per comparison (max abs / rel error, "ok" or "MISMATCH"); exits 1
on a mismatch."""
import glob
import os
import sys

import numpy as np
from onnx import TensorProto, numpy_helper

RTOL, ATOL_SCALE = 1e-4, 1e-5


def compare(model, what, got, ref):
    got, ref = np.asarray(got, np.float64), np.asarray(ref, np.float64)
    if got.shape != ref.shape:
        print("%s: %s: shape %s, expected %s MISMATCH" % (model, what, got.shape, ref.shape))
        return False
    if not ref.size:
        print("%s: %s: empty ok" % (model, what))
        return True
    err = np.abs(got - ref)
    scale = float(np.abs(ref).max())
    rel = float((err / np.maximum(np.abs(ref), 1e-30)).max())
    ok = bool(np.all(err <= RTOL * np.abs(ref) + ATOL_SCALE * scale)) and bool(np.isfinite(got).all())
    print("%s: %s: max abs err %.3g, max rel err %.3g (max |ref| %.3g) %s"
          % (model, what, float(err.max()), rel, scale, "ok" if ok else "MISMATCH"))
    return ok


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    model, ref_dir, got_dir = argv[:3]
    names = sorted(f[:-4] for f in os.listdir(ref_dir) if f.endswith(".npy"))
    if not names:
        print("%s: the reference wrote no outputs MISMATCH" % model)
        return 1
    ok = True
    for n in names:
        path = os.path.join(got_dir, n + ".npy")
        if not os.path.exists(path):
            print("%s: the bundle wrote no %s.npy MISMATCH" % (model, n))
            ok = False
            continue
        ok &= compare(model, "bundle vs reference, " + n, np.load(path), np.load(os.path.join(ref_dir, n + ".npy")))
    for path in sorted(glob.glob(os.path.join(argv[3], "output_*.pb"))) if len(argv) > 3 else []:
        t = TensorProto()
        with open(path, "rb") as fh:
            t.ParseFromString(fh.read())
        ok &= compare(model, "reference vs float64, " + t.name, np.load(os.path.join(ref_dir, t.name + ".npy")),
                      numpy_helper.to_array(t))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
