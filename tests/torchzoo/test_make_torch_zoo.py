#!/usr/bin/python3
"""test_make_torch_zoo.py WORK [REFERENCE]: models/make_torch_zoo.py writes the same bytes on two runs (the second
run: REFERENCE, a directory it wrote before, such as ctest's fixture, when it holds the models checked here) (a CNN with BatchNorm
statistics, a symbolic batch, the two transformers), its small models have nonzero outputs of some spread (a zero-
initialised head, like ViT's, would make any compiler pass), and the zoo names the families issue 33 asks for.
Exits 77 (skip) when torch or torchvision cannot be imported."""
import filecmp
import os
import shutil
import subprocess
import sys

try:
    import torch  # noqa: F401
    import torchvision  # noqa: F401
except Exception as e:  # noqa: BLE001
    print("SKIP: PyTorch / torchvision not importable by /usr/bin/python3 (python3-torch, python3-torchvision): %s"
          % e)
    sys.exit(77)

import numpy as np  # noqa: E402
from onnx import TensorProto, numpy_helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "models", "make_torch_zoo.py")
MODELS = "resnet18-bn,squeezenet1_1-symbatch,vit_b_16,bert,gpt-op17"
FAMILIES = ["mobilenet_v3_small", "mobilenet_v3_large", "efficientnet_b0", "regnet_y_400mf", "convnext_tiny",
            "vit_b_16", "swin_t", "maxvit_t", "densenet121", "googlenet", "inception_v3", "shufflenet_v2_x1_0",
            "resnet18", "resnet50", "mobilenet_v2", "squeezenet1_1", "alexnet", "vgg11", "mnasnet1_0",
            "lraspp_mobilenet_v3_large", "bert", "gpt"]


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], check=True, capture_output=True, text=True).stdout


def main(argv):
    work = argv[0]
    shutil.rmtree(work, ignore_errors=True)
    ok = True
    names = run("--list").split()
    missing = [f for f in FAMILIES if f not in names]
    if missing:
        print("FAIL: the zoo lacks %s" % ", ".join(missing))
        ok = False
    print("%d variants" % len(names))
    dirs = [os.path.join(work, "1"), os.path.join(work, "2")]
    if len(argv) > 1 and all(os.path.isfile(os.path.join(argv[1], m, "model.onnx")) for m in MODELS.split(",")):
        dirs[1] = argv[1]
        print("second run: %s" % argv[1])
    for d in dirs:
        if d.startswith(work):
            written = run(d, "--models", MODELS).split()
            assert written == MODELS.split(","), written
    for m in MODELS.split(","):
        for rel in ["model.onnx"] + ["test_data_set_0/" + f for f in
                                      sorted(os.listdir(os.path.join(dirs[0], m, "test_data_set_0")))]:
            a, b = (os.path.join(d, m, rel) for d in dirs)
            same = filecmp.cmp(a, b, shallow=False)
            if not same:
                print("FAIL: %s/%s differs between two runs" % (m, rel))
                ok = False
            if "output_" in rel:
                t = TensorProto()
                with open(a, "rb") as fh:
                    t.ParseFromString(fh.read())
                v = numpy_helper.to_array(t)
                spread = float(np.std(v))
                print("%s %s: %s, max|v| %.3g, std %.3g%s" % (m, t.name, "x".join(map(str, v.shape)),
                                                              float(np.abs(v).max()), spread,
                                                              "" if same else " (differs)"))
                if not spread > 1e-3:
                    print("FAIL: %s %s is nearly constant" % (m, t.name))
                    ok = False
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
