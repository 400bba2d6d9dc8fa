"""The installed module: `cmake --install` of the build tree into a temporary prefix, then tx8 imported from the
prefix's Python path (not the build tree's) in a fresh python3, compiling and running a model against the prefix's
SDK."""
import os
import subprocess
import sys
import textwrap

from conftest import BUILD_DIR

SCRIPT = textwrap.dedent("""
    import os, sys
    import numpy as np
    from onnx import helper, TensorProto
    import tx8
    prefix = sys.argv[1]
    assert tx8.__file__.startswith(prefix), tx8.__file__
    assert tx8._tx8.__file__.startswith(prefix), tx8._tx8.__file__
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])
    model = helper.make_model(helper.make_graph([helper.make_node("Sigmoid", ["x"], ["y"])], "g", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 13)])
    b = tx8.compile(model)
    v = np.linspace(-4, 4, 16, dtype=np.float32).reshape(2, 8)
    (out,) = b.run([v])
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-v)), rtol=1e-5)
    print("cycles", b.cycles, tx8.__version__)
""")


def test_installed_prefix(tmp_path):
    prefix = str(tmp_path / "prefix")
    subprocess.run(["cmake", "--install", BUILD_DIR, "--prefix", prefix], check=True, capture_output=True)
    site = os.path.join(prefix, "lib", "python3", "dist-packages")
    assert os.path.isfile(os.path.join(site, "tx8", "__init__.py"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TX8_SDK_DIR")}
    env["PYTHONPATH"] = site
    p = subprocess.run([sys.executable, "-c", SCRIPT, prefix], cwd=str(tmp_path), env=env, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("cycles ")
