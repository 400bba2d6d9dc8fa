#!/usr/bin/python3
"""close-to-reference.py LABEL REFERENCE.npy GOT.npy: GOT equals the reference within the ONNX test tolerance
(numpy allclose, rtol 1e-3, atol 1e-7); prints LABEL with the largest error, or fails with it."""
import sys

import numpy as np

label, ref, got = sys.argv[1], np.load(sys.argv[2]), np.load(sys.argv[3])
assert got.shape == ref.shape and got.dtype == ref.dtype, (label, got.shape, got.dtype, ref.shape, ref.dtype)
err = float(np.abs(got - ref).max())
assert np.allclose(got, ref, rtol=1e-3, atol=1e-7), "%s: max |err| vs reference %.3g" % (label, err)
print("%s: max |err| vs reference %.3g" % (label, err))
