#!/usr/bin/python3
"""torchzoo_compare.py MODEL DATA_DIR GOT_DIR [--precision bf16|fp16]: compares the .npy outputs a bundle wrote (GOT_DIR/<name>.npy) with
the outputs PyTorch computed (DATA_DIR/output_<k>.pb, models/make_torch_zoo.py). Passes when every value is finite
and |got - expected| <= 1e-4 * max|expected| + 1e-4 * |expected| everywhere. The scale is the output's largest
magnitude, not each element's: both sides are float32 and differ in the order of their sums (over thousands of
products in a conv or a matmul) and in how exp, erf, tanh and the like are computed, an error of a few ulps of the
values summed; an element near zero (a logit that cancelled) carries the absolute error of its operands, not a
relative one. So an fp32 run agrees to about 1e-6..1e-5 of max|expected|; a wrong shard, broadcast or layout gives
errors of the order of the values themselves. Prints one line per output (max abs error, that over max|expected|,
"ok" or "MISMATCH"); exits 1 on a mismatch.
--precision bf16|fp16: a bundle compiled with that --precision (NE inputs and the values between ops in the
format) is held to test-onnx's rule for it instead, |got - expected| <= 16u * (max|expected| + |expected|) with
u = 2^-8 (bf16) or 2^-11 (fp16): a handful of roundings of the format, not fp32's few ulps."""
import glob
import os
import sys

import numpy as np
from onnx import TensorProto, numpy_helper

ATOL_SCALE, RTOL = 1e-4, 1e-4


def compare(model, name, got, ref, atol_scale=ATOL_SCALE, rtol=RTOL):
    if got.shape != ref.shape:
        print("%s: %s: shape %s, expected %s MISMATCH" % (model, name, got.shape, ref.shape))
        return False
    got, ref = got.astype(np.float64), ref.astype(np.float64)
    if not ref.size:
        print("%s: %s: empty ok" % (model, name))
        return True
    err = np.abs(got - ref)
    err[np.isnan(err)] = np.inf
    scale = float(np.abs(ref).max())
    bad = ~(err <= atol_scale * scale + rtol * np.abs(ref))
    worst = int(np.argmax(err))
    ok = not bad.any()
    print("%s: %s: max abs err %.3g (%.3g of max|expected| %.3g; worst at flat index %d: got %.7g, expected %.7g)"
          "%s %s" % (model, name, float(err.max()), float(err.max()) / max(scale, 1e-30), scale, worst,
                     got.flat[worst], ref.flat[worst], "" if ok else ", %d of %d beyond tolerance" % (bad.sum(),
                                                                                                 bad.size),
                     "ok" if ok else "MISMATCH"))
    return ok


def main(argv):
    tol = (ATOL_SCALE, RTOL)
    if len(argv) == 5 and argv[3] == "--precision" and argv[4] in ("bf16", "fp16"):
        u = 2.0 ** (-8 if argv[4] == "bf16" else -11)
        tol = (16 * u, 16 * u)
        argv = argv[:3]
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    model, data_dir, got_dir = argv
    paths = sorted(glob.glob(os.path.join(data_dir, "output_*.pb")), key=lambda p: int(p.rsplit("_", 1)[1][:-3]))
    if not paths:
        print("%s: no output_<k>.pb in %s MISMATCH" % (model, data_dir))
        return 1
    ok = True
    for path in paths:
        t = TensorProto()
        with open(path, "rb") as fh:
            t.ParseFromString(fh.read())
        got = os.path.join(got_dir, t.name + ".npy")
        if not os.path.exists(got):
            print("%s: the bundle wrote no %s.npy MISMATCH" % (model, t.name))
            ok = False
            continue
        ok &= compare(model, t.name, np.load(got), numpy_helper.to_array(t), *tol)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
