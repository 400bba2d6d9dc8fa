"""Bad inputs raise the right tx8.Error subclass whose message is the one line tx8-aot prints (never a crash)."""
import os
import shutil

import numpy as np
import pytest
from onnx import helper

import tx8
from conftest import make_model, run_cli


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "relu.onnx"
    model = make_model([helper.make_node("Relu", ["x"], ["y"])], [("x", np.float32, (1, 4, 8))],
                       [("y", np.float32, (1, 4, 8))])
    path.write_bytes(model.SerializeToString())
    return str(path)


@pytest.fixture(scope="module")
def bundle(model_path):
    return tx8.compile(model_path)


def cli_error(*args):
    """tx8-aot's exit code and its one error line, without the "tx8-aot: error: " prefix."""
    rc, _, err = run_cli(*args, check=False)
    lines = [l for l in err.splitlines() if l.startswith("tx8-aot: error: ")]
    assert rc in (1, 2) and len(lines) == 1, err
    return rc, lines[0][len("tx8-aot: error: "):]


def test_wrong_shape_count_name(bundle):
    with pytest.raises(tx8.UsageError) as e:
        bundle.run([np.zeros((1, 4, 9), np.float32)])
    assert str(e.value) == "inputs[0]: input 'x' is a f32 tensor of shape 1x4x9, the model expects f32 1x4x8"
    with pytest.raises(tx8.UsageError, match=r"^2 inputs given, the model has 1$"):
        bundle.run([np.zeros((1, 4, 8), np.float32)] * 2)
    with pytest.raises(tx8.UsageError, match=r"^the model has no input 'z' \(its inputs: x\)$"):
        bundle.run({"z": np.zeros((1, 4, 8), np.float32)})
    with pytest.raises(tx8.UsageError, match="^--target qemu: expected cmodel or riscv$"):
        bundle.run([np.zeros((1, 4, 8), np.float32)], target="qemu")


def test_missing_model(tmp_path):
    missing = str(tmp_path / "missing.onnx")
    with pytest.raises(tx8.ModelImportError) as e:
        tx8.compile(missing)
    rc, line = cli_error("compile", missing, "-o", tmp_path / "b")
    assert rc == 1 and str(e.value) == line


def test_corrupt_model(tmp_path):
    path = tmp_path / "garbage.onnx"
    path.write_bytes(b"\x08\x07 this is not a protobuf \xff\xff")
    with pytest.raises(tx8.ModelImportError) as e:
        tx8.compile(str(path))
    _, line = cli_error("compile", path, "-o", tmp_path / "b")
    assert str(e.value) == line
    with pytest.raises(tx8.ModelImportError):
        tx8.compile(path.read_bytes())


def test_bad_options(model_path, tmp_path):
    with pytest.raises(tx8.UsageError) as e:
        tx8.compile(model_path, precision="fp8")
    rc, line = cli_error("compile", model_path, "-o", tmp_path / "b", "--precision", "fp8")
    assert rc == 2 and str(e.value) == line == "--precision fp8: expected fp32, tf32, bf16 or fp16"
    with pytest.raises(tx8.CompileError) as e:  # diagnosed by the compiler, at the module
        tx8.compile(model_path, tiles=5)
    rc, line = cli_error("compile", model_path, "-o", tmp_path / "b", "--tiles", "5")
    assert rc == 1 and str(e.value) == line and "not a rectangle" in line
    with pytest.raises(tx8.UsageError, match="chips=2"):
        tx8.compile(model_path, chips=2)
    with pytest.raises(tx8.UsageError, match="expected a path, ONNX bytes"):
        tx8.compile(42)


def test_missing_and_corrupt_bundle(bundle, tmp_path):
    with pytest.raises(tx8.BundleError) as e:
        tx8.load(tmp_path / "none")
    _, line = cli_error("run", tmp_path / "none", "--out", tmp_path / "o")
    assert str(e.value) == line == f"{tmp_path / 'none'}: not a bundle directory"
    saved = str(tmp_path / "saved")
    bundle.save(saved)
    with open(os.path.join(saved, "consts.bin"), "r+b") as f:  # one byte of the constants flipped
        b = f.read(1)
        f.seek(0)
        f.write(bytes([b[0] ^ 1]) if b else b"\x01")
    with pytest.raises(tx8.BundleError) as e:
        tx8.load(saved)
    _, line = cli_error("run", saved, "--out", tmp_path / "o")
    assert str(e.value) == line and "consts.bin is corrupt" in line
    with pytest.raises(tx8.UsageError, match="already exists"):
        bundle.save(saved)
    shutil.rmtree(saved)
