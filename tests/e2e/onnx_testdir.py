"""Writes one model as an ONNX backend test directory (model.onnx, test_data_set_0/input_<k>.pb and
output_<k>.pb), the layout `tx8-aot test-onnx` reads; shared by the make_*_models.py generators."""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper

ELEMENT = {np.dtype(np.float32): onnx.TensorProto.FLOAT, np.dtype(np.int32): onnx.TensorProto.INT32,
           np.dtype(np.int64): onnx.TensorProto.INT64, np.dtype(np.bool_): onnx.TensorProto.BOOL,
           np.dtype(np.int8): onnx.TensorProto.INT8, np.dtype(np.uint8): onnx.TensorProto.UINT8}


def write_test(out, name, nodes, inputs, outputs, opset, initializers=(), ir=None, symbolic=None):
    """nodes: the graph's nodes; inputs / outputs: (name, numpy array) in order, the outputs the expected
    values; initializers: (name, numpy array) compile-time constants; ir: the model's ir_version (default: what
    onnx.helper writes); symbolic: {input or output name: {dim: symbol}}. The ONNX 1.12 checker runs on the
    models it knows (IR <= 8, opset <= 17). Writes OUT/NAME, prints NAME."""
    symbolic = symbolic or {}

    def value_info(n, v):
        shape = [symbolic.get(n, {}).get(k, d) for k, d in enumerate(v.shape)]
        return helper.make_tensor_value_info(n, ELEMENT[v.dtype], shape)

    graph = helper.make_graph(nodes, name, [value_info(n, v) for n, v in inputs],
                              [value_info(n, v) for n, v in outputs],
                              initializer=[numpy_helper.from_array(v, n) for n, v in initializers])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="tx8-aot tests")
    if ir is not None:
        model.ir_version = ir
    if model.ir_version <= 8 and opset <= 17:
        onnx.checker.check_model(model)
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for k, (n, v) in enumerate(tensors):
            with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, k)), "wb") as fh:
                fh.write(numpy_helper.from_array(v, n).SerializeToString())
    print(name)
