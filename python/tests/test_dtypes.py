"""Inputs and outputs of every dtype numpy and the device share: f32, f16, int8, int64, bool (one small hand-made
ONNX model of several inputs and outputs), each numpy dtype checked against the model's."""
import numpy as np
import pytest
from onnx import helper

import tx8
from conftest import make_model

SHAPE = (2, 3)
INPUTS = [("x", np.float32), ("y", np.float32), ("h", np.float16), ("g", np.float16), ("a", np.int8),
          ("b", np.int8), ("i", np.int64), ("j", np.int64), ("p", np.bool_)]
OUTPUTS = [("relu", np.float32), ("hmax", np.float16), ("amax", np.int8), ("imin", np.int64), ("notp", np.bool_),
           ("gt", np.bool_)]


@pytest.fixture(scope="module")
def bundle():
    nodes = [helper.make_node("Relu", ["x"], ["relu"]), helper.make_node("Max", ["h", "g"], ["hmax"]),
             helper.make_node("Max", ["a", "b"], ["amax"]), helper.make_node("Min", ["i", "j"], ["imin"]),
             helper.make_node("Not", ["p"], ["notp"]), helper.make_node("Greater", ["x", "y"], ["gt"])]
    model = make_model(nodes, [(n, t, SHAPE) for n, t in INPUTS], [(n, t, SHAPE) for n, t in OUTPUTS])
    return tx8.compile(model)


def values():
    rng = np.random.RandomState(1)
    v = {n: rng.randn(*SHAPE).astype(t) for n, t in INPUTS if t in (np.float32, np.float16)}
    v.update({n: rng.randint(-128, 128, SHAPE).astype(np.int8) for n in "ab"})
    # int64 within int32's range: the device computes int64 Min/Max/Add in 32 bits (saturating), a known limit
    v.update({n: rng.randint(-2**31, 2**31, SHAPE).astype(np.int64) for n in "ij"})
    v["p"] = rng.rand(*SHAPE) > 0.5
    return v


def test_every_dtype(bundle):
    assert [(i.name, i.dtype) for i in bundle.inputs] == [(n, np.dtype(t)) for n, t in INPUTS]
    assert [(o.name, o.dtype) for o in bundle.outputs] == [(n, np.dtype(t)) for n, t in OUTPUTS]
    v = values()
    out = dict(zip([o.name for o in bundle.outputs], bundle.run(v)))
    expected = {"relu": np.maximum(v["x"], 0), "hmax": np.maximum(v["h"], v["g"]), "amax": np.maximum(v["a"], v["b"]),
                "imin": np.minimum(v["i"], v["j"]), "notp": ~v["p"], "gt": v["x"] > v["y"]}
    for name, want in expected.items():
        assert out[name].dtype == want.dtype and out[name].shape == SHAPE, name
        assert np.array_equal(out[name], want), name


@pytest.mark.parametrize("name,wrong", [("x", np.float64), ("h", np.float32), ("a", np.uint8), ("i", np.int32),
                                        ("p", np.int8)])
def test_dtype_checked(bundle, name, wrong):
    v = values()
    v[name] = v[name].astype(wrong)
    want = dict(INPUTS)[name]
    with pytest.raises(tx8.UsageError) as e:
        bundle.run(v)
    dtype = {np.float32: "f32", np.float16: "f16", np.int8: "i8", np.int64: "i64", np.bool_: "bool"}[want]
    assert str(e.value).startswith(f"inputs['{name}']: input '{name}' is a ")
    assert str(e.value).endswith(f", the model expects {dtype} 2x3"), str(e.value)


def test_unsupported_numpy_dtype(bundle):
    v = values()
    v["x"] = v["x"].astype(np.complex64)
    with pytest.raises(tx8.UsageError, match=r"inputs\['x'\]: numpy dtype complex64 is not one tx8 runs"):
        bundle.run(v)
