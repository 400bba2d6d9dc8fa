"""Fixtures of the tx8 Python module's tests: the build tree's tools, the demo CNN, small hand-made ONNX models."""
import os
import subprocess
import sys

import numpy as np
import pytest

BUILD_DIR = os.environ.get("TX8_BUILD_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
SOURCE_DIR = os.environ.get("TX8_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TX8_AOT = os.path.join(BUILD_DIR, "bin", "tx8-aot")


def run_cli(*args, check=True):
    """tx8-aot with `args`: (exit code, stdout, stderr)."""
    p = subprocess.run([TX8_AOT, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"tx8-aot {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return p.returncode, p.stdout, p.stderr


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """The demo CNN (models/make_demo_cnn.py): (model.onnx path, its input as an array)."""
    import onnx
    from onnx import numpy_helper
    out = tmp_path_factory.mktemp("demo")
    subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "models", "make_demo_cnn.py"), str(out)], check=True,
                   capture_output=True)
    x = numpy_helper.to_array(onnx.load_tensor(str(out / "test_data_set_0" / "input_0.pb")))
    return str(out / "model.onnx"), x


def make_model(nodes, inputs, outputs, name="m"):
    """An ONNX model (opset 13) of `nodes` with inputs/outputs given as (name, numpy dtype, shape)."""
    from onnx import helper, mapping
    def info(n, dtype, shape):
        return helper.make_tensor_value_info(n, mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)], list(shape))
    graph = helper.make_graph(nodes, name, [info(*i) for i in inputs], [info(*o) for o in outputs])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
