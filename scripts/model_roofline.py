#!/usr/bin/python3
"""model_roofline.py MODEL.onnx [--weight-bytes N] : the MACs and the DDR bytes that must cross a chip's DDR for one
run of an ONNX model, the two terms of bench-plan.sh's roofline (issue 34's targets):
  MACs   the products of every MatMul, Gemm and Conv at the shapes ONNX's shape inference gives (batch dims
         included, a Conv's per group); an Einsum or another op is not counted;
  bytes  every initializer read once at N bytes an element (default 2: --precision bf16 stores weights in bf16),
         but a table that only a Gather reads counts the rows its indices can pick (an embedding lookup reads
         count x width, not the table), plus the graph's inputs and outputs at their own sizes.
Prints `macs=<int> ddr_bytes=<int>`; exits 2 on a shape it cannot infer."""
import sys

import numpy as np
import onnx
from onnx import mapping, numpy_helper, shape_inference


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    path, weight_bytes = argv[0], 2
    if len(argv) == 3 and argv[1] == "--weight-bytes":
        weight_bytes = int(argv[2])
    model = shape_inference.infer_shapes(onnx.load(path))
    g = model.graph
    shapes = {}
    for vi in list(g.value_info) + list(g.input) + list(g.output):
        dims = [d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim]
        shapes[vi.name] = dims
    inits = {t.name: t for t in g.initializer}
    for t in g.initializer:
        shapes[t.name] = list(t.dims)

    def shape(name):
        s = shapes.get(name)
        if s is None or any(d is None for d in s):
            raise SystemExit("model_roofline.py: no static shape for %s" % name)
        return s

    macs = 0
    for n in g.node:
        if n.op_type in ("MatMul", "Gemm"):
            a, b = shape(n.input[0]), shape(n.input[1])
            y = shape(n.output[0])
            trans_a = any(at.name == "transA" and at.i for at in n.attribute)
            k = a[-2] if (n.op_type == "Gemm" and trans_a) else a[-1]
            macs += int(np.prod(y, dtype=np.int64)) * k
        elif n.op_type == "Conv":
            w, y = shape(n.input[1]), shape(n.output[0])
            macs += int(np.prod(y, dtype=np.int64)) * int(np.prod(w[1:], dtype=np.int64))

    gathered = {}  # table -> rows its Gathers can read
    other_readers = set()
    for n in g.node:
        for i, name in enumerate(n.input):
            if name in inits:
                if n.op_type == "Gather" and i == 0:
                    gathered[name] = gathered.get(name, 0) + int(np.prod(shape(n.input[1]), dtype=np.int64))
                else:
                    other_readers.add(name)
    ddr = 0
    for name, t in inits.items():
        elems = int(np.prod(t.dims, dtype=np.int64))
        if name in gathered and name not in other_readers and len(t.dims) >= 1 and t.dims[0]:
            elems = min(elems, gathered[name] * (elems // t.dims[0]))
        size = weight_bytes if t.data_type == onnx.TensorProto.FLOAT else numpy_helper.to_array(t).itemsize
        ddr += elems * size
    for vi in list(g.input) + list(g.output):
        if vi.name in inits:
            continue
        elem = np.dtype(mapping.TENSOR_TYPE_TO_NP_TYPE[vi.type.tensor_type.elem_type]).itemsize
        ddr += int(np.prod(shape(vi.name), dtype=np.int64)) * elem
    print("macs=%d ddr_bytes=%d" % (macs, ddr))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
