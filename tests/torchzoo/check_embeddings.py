#!/usr/bin/python3
"""check_embeddings.py MODEL MODEL.onnx BUNDLE/manifest.json: an embedding lookup the model does at run time (an ONNX
Gather along axis 0 of a 2-D float initializer whose indices are a graph input: BERT's and GPT's word embeddings)
must run as op_gather_rows, a "Gather..." group of the manifest's "groups", and be part of no group that computes
(a one-hot MatMul by the whole table, or a one-hot selection: MatMul, Equal, Where, ReduceSum groups naming the
node). Embeddings with compile-time indices fold away and are not looked at. Prints one line per embedding ("ok" or
"MISMATCH"); exits 1 on a mismatch."""
import json
import sys

import onnx
from onnx import TensorProto

FLOATS = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16)
ONE_HOT = ("MatMul", "Equal", "Where", "ReduceSum")


def main():
    model, path, manifest = sys.argv[1:4]
    graph = onnx.load(path, load_external_data=False).graph
    tables = {t.name for t in graph.initializer if len(t.dims) == 2 and t.data_type in FLOATS}
    inputs = {i.name for i in graph.input} - {t.name for t in graph.initializer}
    groups = json.load(open(manifest))["groups"]
    ok = True
    for node in graph.node:
        axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
        if node.op_type != "Gather" or node.input[0] not in tables or node.input[1] not in inputs or axis != 0:
            continue
        name = node.name or node.output[0]
        ops = [g["op"] for g in groups if name in g["nodes"]]
        gather = any(op.startswith("Gather") for op in ops)
        one_hot = [op for op in ops if any(k in op.split("+") for k in ONE_HOT)]
        if gather and not one_hot:
            print("%s: embedding %s: a Gather group (op_gather_rows) ok" % (model, name))
        else:
            print("%s: embedding %s: groups %s, expected a Gather group and no one-hot %s MISMATCH"
                  % (model, name, ops, "/".join(ONE_HOT)))
            ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
