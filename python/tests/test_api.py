"""The API on the demo CNN: compile, run, the model's inputs and outputs, save/load, trace, report, diff, and the
same bundle, outputs and cycles as the tx8-aot command line."""
import json
import logging
import re

import numpy as np
import onnx
import pytest

import tx8
from conftest import run_cli


@pytest.fixture(scope="module")
def bundle(demo):
    return tx8.compile(demo[0])


def test_inputs_outputs(bundle):
    assert bundle.inputs == [tx8.TensorInfo("input", (1, 3, 32, 32), np.dtype(np.float32))]
    assert bundle.outputs == [tx8.TensorInfo("probs", (1, 10), np.dtype(np.float32))]
    assert bundle.target == "cmodel" and bundle.cycles is None


def test_run_matches_the_command_line(bundle, demo, tmp_path):
    path, x = demo
    (probs,) = bundle.run([x])
    assert probs.dtype == np.float32 and probs.shape == (1, 10)
    assert abs(float(probs.sum()) - 1) < 1e-5
    assert bundle.cycles > 0
    # tx8-aot compile + run: the same bundle files, outputs and cycles
    run_cli("compile", path, "-o", tmp_path / "b", "--quiet")
    for f in ("main.c", "consts.bin", "manifest.json"):
        assert (tmp_path / "b" / f).read_bytes() == open(f"{bundle.dir}/{f}", "rb").read()
    np.save(tmp_path / "input.npy", x)
    _, out, _ = run_cli("run", tmp_path / "b", "--input", f"input={tmp_path / 'input.npy'}", "--out", tmp_path / "o")
    assert np.array_equal(np.load(tmp_path / "o" / "probs.npy"), probs)
    assert int(re.search(r"cmodel: (\d+) simulated cycles", out).group(1)) == bundle.cycles


def test_inputs_by_name_and_models_in_memory(bundle, demo):
    path, x = demo
    (expected,) = bundle.run([x])
    assert np.array_equal(bundle.run({"input": x})[0], expected)
    assert np.array_equal(bundle.run(x)[0], expected)
    proto = onnx.load(path)
    for model in (proto, proto.SerializeToString()):
        assert np.array_equal(tx8.compile(model).run([x])[0], expected)


def test_options(demo):
    path, x = demo
    small = tx8.compile(path, hw={"spm_bytes": 1 << 20}, tiles=4, precision="bf16")
    np.testing.assert_allclose(small.run([x])[0], tx8.compile(path).run([x])[0], atol=2e-2)
    assert small.cycles > 0


def test_save_load(bundle, demo, tmp_path):
    x = demo[1]
    saved = bundle.save(tmp_path / "saved")
    assert saved.dir == str(tmp_path / "saved")
    again = tx8.load(tmp_path / "saved")
    assert np.array_equal(again.run([x])[0], bundle.run([x])[0])
    assert again.cycles == bundle.cycles


def test_trace_and_report(bundle, demo, tmp_path):
    bundle.run([demo[1]])
    summary = bundle.trace(tmp_path / "trace.json")
    assert summary.startswith("trace: ") and summary.endswith(str(tmp_path / "trace.json"))
    trace = json.loads((tmp_path / "trace.json").read_text())
    assert trace["traceEvents"] and trace["otherData"]["cycles"] == bundle.cycles
    line = bundle.report(tmp_path / "report.html")
    assert line.startswith(f"report of {bundle.dir} -> {tmp_path / 'report.html'}: ")
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "tx8-aot report: " in page
    assert bundle.report(tmp_path / "again.html", trace_file=tmp_path / "trace.json").startswith("report of ")


def test_logging(bundle, demo, caplog):
    with caplog.at_level(logging.INFO, logger="tx8"):
        bundle.run([demo[1]])
    assert re.search(r"cmodel: \d+ simulated cycles", caplog.text)


def test_diff(demo):
    path, x = demo
    rows = tx8.diff(path, [x], atol=1e-5)
    assert len(rows) == 18 and rows.first_divergence is None
    assert rows.summary == "all 18 tensors within tolerance"
    conv = rows[0]
    assert conv.op_type == "Conv" and conv.compared and conv.ok and conv.cosine > 0.9999
    assert rows.table().splitlines()[0].split()[:4] == ["#", "node", "op_type", "tensor"]


def test_threads(demo):
    """Compiles and runs in threads side by side (the GIL is released while the compiler and the bundle run)."""
    from concurrent.futures import ThreadPoolExecutor
    path, x = demo
    with ThreadPoolExecutor(2) as pool:
        outputs = list(pool.map(lambda _: tx8.compile(path).run([x])[0], range(2)))
    assert np.array_equal(outputs[0], outputs[1])
