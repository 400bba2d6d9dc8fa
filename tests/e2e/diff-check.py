#!/usr/bin/python3
"""Checks a `tx8-aot diff MODEL ... --out OUT` run (its text table in OUT.txt, OUT/diff.tsv, OUT/device/*.npy,
OUT/reference/*.npy) against the ONNX model itself.

  diff-check.py clean MODEL OUT                 every node output within tolerance
  diff-check.py inject MODEL OUT CLEAN NODE     --test-inject-error=NODE: NODE the first divergence; the device's
                                                values before it those of the clean run CLEAN, NODE's element 0
                                                x + 1 + |x|, later ones off too; the reference's unchanged
"""
import os
import sys

import numpy as np
import onnx
from onnx import shape_inference

COLUMNS = ["index", "node", "op_type", "tensor", "shape", "dtype", "max_abs_err", "max_rel_err", "cosine", "verdict",
           "file"]


def fail(message):
    sys.exit("diff-check.py: " + message)


def node_outputs(model_path):
    """(node, op_type, tensor, shape) per node output, in graph order; node = its name, else its first output's."""
    model = shape_inference.infer_shapes(onnx.load(model_path))
    g = model.graph
    shapes = {}
    for vi in list(g.value_info) + list(g.output) + list(g.input):
        shapes[vi.name] = "x".join(str(d.dim_value) for d in vi.type.tensor_type.shape.dim) or "scalar"
    return [(n.name or n.output[0], n.op_type, out, shapes[out]) for n in g.node for out in n.output if out]


def read_tsv(out):
    lines = open(os.path.join(out, "diff.tsv")).read().splitlines()
    if lines[0].split("\t") != COLUMNS:
        fail("%s/diff.tsv: header %r" % (out, lines[0]))
    rows = [dict(zip(COLUMNS, line.split("\t"))) for line in lines[1:]]
    if any(len(line.split("\t")) != len(COLUMNS) for line in lines):
        fail("%s/diff.tsv: a line without %d fields" % (out, len(COLUMNS)))
    return rows


def check_rows(model, out):
    """The rows are the model's node outputs, in order, with their shapes; their files load with those shapes."""
    expected = node_outputs(model)
    rows = read_tsv(out)
    got = [(r["node"], r["op_type"], r["tensor"], r["shape"]) for r in rows]
    if got != expected:
        fail("%s: rows %s, the model's node outputs %s" % (out, got, expected))
    if [r["index"] for r in rows] != [str(i) for i in range(len(rows))]:
        fail("%s: indices not 0..%d" % (out, len(rows) - 1))
    files = [r["file"] for r in rows]
    if len(set(files)) != len(files):
        fail("%s: file names not unique: %s" % (out, files))
    arrays = {}
    for r in rows:
        for side in ("device", "reference"):
            a = np.load(os.path.join(out, side, r["file"]))
            want = tuple(int(d) for d in r["shape"].split("x"))
            if a.shape != want or a.dtype != np.float32 or r["dtype"] != "f32":
                fail("%s/%s/%s: %s %s, the row says %s %s" % (out, side, r["file"], a.dtype, a.shape, r["dtype"], want))
            arrays[(side, r["tensor"])] = a
    for side in ("device", "reference"):
        if sorted(os.listdir(os.path.join(out, side))) != sorted(files):
            fail("%s/%s holds %s" % (out, side, sorted(os.listdir(os.path.join(out, side)))))
    return rows, arrays


def check_text(out, rows, first):
    """The text table: a row per node output, columns aligned, the first divergence (if any) marked once."""
    lines = open(out + ".txt").read().splitlines()
    if not lines[0].startswith("diff ") or not lines[1].startswith("tolerance: "):
        fail("%s.txt: header %s" % (out, lines[:2]))
    header, table, summary = lines[2], lines[3:-1], lines[-1]
    if len(table) != len(rows) or header.split()[0] != "#":
        fail("%s.txt: %d table rows, %d node outputs" % (out, len(table), len(rows)))
    verdict_at = header.index("verdict")
    for i, line in enumerate(table):
        if line[verdict_at:].split()[0] != rows[i]["verdict"] or line[verdict_at - 2:verdict_at] != "  ":
            fail("%s.txt: row %d not aligned under 'verdict': %r" % (out, i, line))
        if ("<- first divergence" in line) != (i == first):
            fail("%s.txt: row %d marked wrong (first divergence: row %s): %r" % (out, i, first, line))
    return summary


def main():
    mode, model, out = sys.argv[1:4]
    rows, arrays = check_rows(model, out)
    verdicts = [r["verdict"] for r in rows]
    if mode == "clean":
        if set(verdicts) != {"ok"}:
            fail("%s: verdicts %s" % (out, verdicts))
        for r in rows:
            dev, ref = arrays[("device", r["tensor"])], arrays[("reference", r["tensor"])]
            if not np.allclose(dev, ref, rtol=1e-3, atol=1e-5):
                fail("%s: %s: device and reference differ by %g" % (out, r["tensor"], np.abs(dev - ref).max()))
        summary = check_text(out, rows, None)
        if summary != "all %d tensors within tolerance" % len(rows):
            fail("%s.txt: summary %r" % (out, summary))
        print("diff-check: %s: %d node outputs in order, all within tolerance" % (out, len(rows)))
        return
    clean, node = sys.argv[4], sys.argv[5]
    _, clean_arrays = check_rows(model, clean)
    at = [r["node"] for r in rows].index(node)
    if "FAIL" not in verdicts or verdicts.index("FAIL") != at or set(verdicts[:at]) != {"ok"}:
        fail("%s: --test-inject-error=%s is row %d, verdicts %s" % (out, node, at, verdicts))
    summary = check_text(out, rows, at)
    if not summary.startswith("first divergence: node '%s' (%s) output '%s': max|err| "
                              % (node, rows[at]["op_type"], rows[at]["tensor"])):
        fail("%s.txt: summary %r" % (out, summary))
    for i, r in enumerate(rows):
        t = r["tensor"]
        if not np.array_equal(arrays[("reference", t)], clean_arrays[("reference", t)]):
            fail("%s: the reference's %s changed" % (out, t))
        dev, before = arrays[("device", t)], clean_arrays[("device", t)]
        if i < at and not np.array_equal(dev, before):
            fail("%s: %s (row %d, before the injected node) differs from the clean run" % (out, t, i))
        if i == at:
            x = before.flat[0]
            want = before.copy()
            want.flat[0] = np.float32(x + np.float32(1) + np.abs(x))
            if not np.array_equal(dev, want):
                fail("%s: %s: the device has %s, the clean run %s: not only element 0 changed as x + 1 + |x|"
                     % (out, t, dev.flat[:4], before.flat[:4]))
    after = [r["tensor"] for r in rows[at + 1:]
             if not np.array_equal(arrays[("device", r["tensor"])], clean_arrays[("device", r["tensor"])])]
    if not after or "FAIL" not in verdicts[at + 1:]:
        fail("%s: nothing after %s changed on the device (changed: %s)" % (out, node, after))
    print("diff-check: %s: first divergence %s (row %d of %d); %d later tensors changed on the device"
          % (out, node, at, len(rows), len(after)))


if __name__ == "__main__":
    main()
