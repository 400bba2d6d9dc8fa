#!/usr/bin/python3
"""The plan fuzzer: random small models made of the blocks PyTorch models are made of (blocks.py), exported with
torch.onnx.export (opset 13, 14 or 17, sometimes with a symbolic batch), compiled by tx8-aot under random plans
(--tiles 1..16, --hw SPM sizes from 64 KiB to 3 MiB, --precision, --opt-search 0..2, --sw-pipeline, --fuse), run
on the cmodel and compared with PyTorch's own output.

  planfuzz.py --aot TX8_AOT --work DIR [--cases N] [--seconds S] [--seed K] [--blocks B] [--jobs J]
  planfuzz.py --aot TX8_AOT --work DIR --replay FILE.json...

A case is one block compiled and run under one plan. To make a case cheap, a model holds B independent blocks
(each its own input and output), and every worker keeps one bundle directory whose build tree survives from model
to model (the bundle's sources are replaced; ninja rebuilds main.c and links: no cmake configure per model).

Invariants: no fault on the chip, no mismatch, no crash of the compiler. A refusal is fine when the compiler
says why in one line (exit 1); a refused block is dropped (the error names its node, /b<k>/...) and the rest of
the model compiled again. Each fault or mismatch is minimised: the block that fails on its own under the same
options is written to DIR/findings/<id>.json (the replayable case: move it to tests/planfuzz/regressions/ with the
fix); one that fails only with the others is written whole. Prints a summary; exits 1 when anything failed.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
warnings.filterwarnings("ignore")  # the exporter's shape-inference notes: what it writes is what is tested

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blocks  # noqa: E402

torch.set_num_threads(1)
SPM_SIZES = (65536, 131072, 262144, 1048576, 3145728)
# |device - torch| <= ATOL[precision] * max(1, max|torch|) + RTOL * |torch|: fp32 rounding through a few ops; the
# NE reads conv/gemm inputs in the reduced formats (u = 2^-11 tf32/fp16, 2^-8 bf16), a few ops deep.
ATOL = {"fp32": 2e-4, "tf32": 2e-2, "fp16": 2e-2, "bf16": 8e-2}
RTOL = 1e-3


def random_options(rng):
    return {"tiles": rng.choice((1, 2, 4, 8, 16, 16)), "spm_bytes": rng.choice(SPM_SIZES),
            "precision": rng.choice(("fp32", "fp32", "tf32", "bf16", "fp16")), "opt_search": rng.choice((0, 1, 2)),
            "sw_pipeline": rng.random() < 0.7, "fuse": rng.random() < 0.8, "opset": rng.choice((13, 14, 17)),
            "symbatch": rng.random() < 0.2}


def option_args(options, work):
    hw = os.path.join(work, "hw-%d.json" % options["spm_bytes"])
    if not os.path.exists(hw):
        with open(hw, "w") as f:
            json.dump({"spm_bytes": options["spm_bytes"]}, f)
    return ["--tiles", str(options["tiles"]), "--hw", hw, "--precision", options["precision"],
            "--opt-search", str(options["opt_search"]), "--sw-pipeline=%s" % str(options["sw_pipeline"]).lower(),
            "--fuse=%s" % str(options["fuse"]).lower()]


class Model(torch.nn.Module):
    """Independent blocks b0, b1, ...: input in<k> -> block -> output out<k>."""

    def __init__(self, modules):
        super().__init__()
        self.blocks = torch.nn.ModuleList(modules)

    def forward(self, *xs):
        return tuple(block(x) for block, x in zip(self.blocks, xs))


def export(specs, options, out_dir):
    """Writes model.onnx and in<k>.npy; returns the expected outputs (torch)."""
    made = [blocks.make_block(s) for s in specs]
    model = Model([m for m, _ in made]).eval()
    xs = tuple(x for _, x in made)
    names_in = ["in%d" % k for k in range(len(specs))]
    names_out = ["out%d" % k for k in range(len(specs))]
    dynamic = {n: {0: "batch"} for n in names_in + names_out} if options["symbatch"] else None
    os.makedirs(out_dir, exist_ok=True)
    with torch.no_grad():
        expected = [y.numpy() for y in model(*xs)]
        torch.onnx.export(model, xs, os.path.join(out_dir, "model.onnx"), opset_version=options["opset"],
                          input_names=names_in, output_names=names_out, dynamic_axes=dynamic,
                          do_constant_folding=True)
    inputs = os.path.join(out_dir, "inputs")
    os.makedirs(inputs, exist_ok=True)
    for n, x in zip(names_in, xs):
        np.save(os.path.join(inputs, n + ".npy"), x.numpy())
    return expected


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def sync_bundle(fresh, runner):
    """Replaces the runner bundle's sources with the fresh bundle's; keeps its build tree when the bundle's
    CMakeLists.txt is unchanged (ninja then rebuilds what changed)."""
    os.makedirs(runner, exist_ok=True)
    old = os.path.join(runner, "CMakeLists.txt")
    new = os.path.join(fresh, "CMakeLists.txt")
    if not (os.path.exists(old) and open(old, "rb").read() == open(new, "rb").read()):
        shutil.rmtree(os.path.join(runner, "build-cmodel"), ignore_errors=True)
    for f in os.listdir(runner):
        p = os.path.join(runner, f)
        if os.path.isfile(p) and not f.startswith("build-"):
            os.remove(p)
    for f in os.listdir(fresh):
        p = os.path.join(fresh, f)
        if os.path.isfile(p):
            shutil.copy2(p, os.path.join(runner, f))


def first_line(text, pattern):
    for line in text.splitlines():
        if re.search(pattern, line):
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no output)"


def refused_block(model_path, reason):
    """The block a refusal names: the error names an ONNX node ("node 12 (onnx.Concat)" or by its name); the block
    is the one whose graph input in<k> the node's inputs come from. None when that is not one block."""
    import onnx
    graph = onnx.load(model_path).graph
    node = None
    m = re.search(r"node (\d+) \(", reason)
    if m and int(m.group(1)) < len(graph.node):
        node = graph.node[int(m.group(1))]
    else:
        named = [n for n in graph.node if n.name and ("'%s'" % n.name in reason or '"%s"' % n.name in reason)]
        node = named[0] if len(named) == 1 else None
    if node is None:
        return None
    producer = {o: n for n in graph.node for o in n.output}
    seen, todo, blocks_hit = set(), list(node.input), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if re.fullmatch(r"in(\d+)", name):
            blocks_hit.add(int(name[2:]))
        elif name in producer:
            todo.extend(producer[name].input)
    return blocks_hit.pop() if len(blocks_hit) == 1 else None


def try_model(aot, specs, options, work, tag):
    """Compiles and runs one model. Returns (status, detail, per-block verdicts, dropped block indices), status one
    of ok, refused, fault, mismatch, crash, timeout; refusals of single blocks are dropped and the rest retried."""
    specs = list(specs)
    keep = list(range(len(specs)))
    dropped = []
    model_dir = os.path.join(work, tag)
    for _ in range(len(specs) + 1):
        shutil.rmtree(model_dir, ignore_errors=True)
        try:
            expected = export([specs[k] for k in keep], options, model_dir)
        except Exception as e:  # noqa: BLE001 - the generator's own failure: no case, reported as such
            return "export-error", "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200]), [], dropped, keep
        bundle = os.path.join(model_dir, "bundle")
        code, out = run([aot, "compile", os.path.join(model_dir, "model.onnx"), "-o", bundle, "--quiet"]
                        + option_args(options, work), 300)
        if code == "timeout":
            return "timeout", "compile took over 300 s", [], dropped, keep
        if code not in (0, 1) or re.search(r"Stack dump|Assertion|Segmentation|PLEASE submit", out):
            return "crash", "compile exit %s: %s" % (code, first_line(out, r"error|Assert|dump")), [], dropped, keep
        if code == 1:
            reason = first_line(out, r"error:")
            j = refused_block(os.path.join(model_dir, "model.onnx"), reason)
            if j is None or len(keep) == 1:
                return "refused", reason, [], dropped, keep
            k = keep[j]
            dropped.append((k, reason))
            keep.remove(k)
            continue
        runner = os.path.join(work, "runner")
        sync_bundle(bundle, runner)
        dev = os.path.join(model_dir, "device")
        code, out = run([aot, "run", runner, "--inputs-dir", os.path.join(model_dir, "inputs"), "--out", dev], 300)
        if code == "timeout":
            return "timeout", "run took over 300 s", [], dropped, keep
        if code != 0:
            return "fault", first_line(out, r"fault|error"), [], dropped, keep
        verdicts = []
        for j, want in enumerate(expected):
            got = np.load(os.path.join(dev, "out%d.npy" % j))
            if got.shape != want.shape:
                verdicts.append("shape %s, torch %s" % (got.shape, want.shape))
                continue
            err = np.abs(got.astype(np.float64) - want)
            bound = ATOL[options["precision"]] * max(1.0, float(np.max(np.abs(want)))) + RTOL * np.abs(want)
            bad = ~(err <= bound)
            verdicts.append("" if not bad.any() else "max |err| %.3g where the bound is %.3g" %
                            (float(np.nanmax(err)), float(bound.flat[np.argmax(bad)])))
        status = "mismatch" if any(verdicts) else "ok"
        return status, "; ".join(v for v in verdicts if v), verdicts, dropped, keep
    return "refused", "every block refused", [], dropped, keep


def batch(aot, work, seed, index, n_blocks):
    rng = random.Random("%d/%d" % (seed, index))
    specs = [blocks.random_spec(rng) for _ in range(n_blocks)]
    options = random_options(rng)
    status, detail, verdicts, dropped, keep = try_model(aot, specs, options, work, "model")
    result = {"index": index, "options": options, "status": status, "detail": detail, "cases": 0,
              "refusals": [r for _, r in dropped], "findings": [], "kinds": [specs[k]["kind"] for k in keep]}
    if status == "ok":
        result["cases"] = len(keep)
    elif status == "refused":
        result["refusals"].append(detail)
    elif status == "export-error":
        pass  # torch.onnx.export refused the model: a gap of the generator, counted apart
    else:  # minimise: which block fails on its own under the same options
        suspects = [keep[j] for j, v in enumerate(verdicts) if v] if status == "mismatch" else keep
        result["cases"] = len(keep) - len(suspects) if status == "mismatch" else 0
        alone_failed = False
        for k in suspects:
            s, d, _, _, _ = try_model(aot, [specs[k]], options, work, "alone")
            if s not in ("ok", "refused", "export-error"):
                alone_failed = True
                result["findings"].append({"specs": [specs[k]], "options": options, "status": s, "detail": d})
            elif s == "ok":
                result["cases"] += 1
        if not alone_failed:
            result["findings"].append({"specs": [specs[k] for k in keep], "options": options, "status": status,
                                       "detail": detail})
    return result


def worker(args):
    aot, work, seed, indices, n_blocks, deadline = args
    os.makedirs(work, exist_ok=True)
    results = []
    for i in indices:
        if deadline and time.time() > deadline:
            break
        r = batch(aot, work, seed, i, n_blocks)
        print("planfuzz: model %d: %s, %d cases%s" % (i, r["status"], r["cases"],
                                                       (": " + r["detail"]) if r["detail"] else ""),
              file=sys.stderr, flush=True)
        results.append(r)
    return results


def replay(aot, work, files):
    failed = 0
    for path in files:
        with open(path) as f:
            case = json.load(f)
        status, detail, _, _, _ = try_model(aot, case["specs"], case["options"], work, "replay")
        ok = status in ("ok", "refused") and (status == "ok" or case.get("refusal_ok", False))
        print("%s %s: %s%s" % ("PASS" if ok else "FAIL", os.path.basename(path), status,
                               (" (" + detail + ")") if detail else ""))
        failed += not ok
    print("planfuzz replay: %d passed, %d failed" % (len(files) - failed, failed))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--aot", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", type=int, default=0, help="stop after about this many cases (0: --seconds decides)")
    ap.add_argument("--seconds", type=float, default=0, help="stop starting models after this long")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--blocks", type=int, default=12, help="blocks per model")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--replay", nargs="+", metavar="FILE")
    args = ap.parse_args()
    aot = os.path.abspath(args.aot)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    if args.replay:
        return replay(aot, work, args.replay)
    if not args.cases and not args.seconds:
        ap.error("give --cases or --seconds")

    start = time.time()
    deadline = start + args.seconds if args.seconds else 0
    n_models = -(-args.cases // args.blocks) if args.cases else 1 << 30
    jobs = max(1, args.jobs)
    chunks = [list(range(j, n_models, jobs)) if args.cases else range(j, n_models, jobs) for j in range(jobs)]
    tasks = [(aot, os.path.join(work, "w%d" % j), args.seed, chunks[j], args.blocks, deadline) for j in range(jobs)]
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        results = sorted((r for rs in pool.map(worker, tasks) for r in rs), key=lambda r: r["index"])

    findings_dir = os.path.join(work, "findings")
    cases = sum(r["cases"] for r in results)
    counts = {s: sum(r["status"] == s for r in results) for s in ("ok", "refused", "fault", "mismatch", "crash",
                                                                     "timeout", "export-error")}
    findings = [f for r in results for f in r["findings"]]
    if findings:
        os.makedirs(findings_dir, exist_ok=True)
    for n, f in enumerate(findings):
        name = "seed%d-%s-%d.json" % (args.seed, f["status"], n)
        with open(os.path.join(findings_dir, name), "w") as fh:
            json.dump(f, fh, indent=1, sort_keys=True)
        print("planfuzz: %s: %s (%s)" % (f["status"], f["detail"], os.path.join(findings_dir, name)))
    refusals = {}
    for r in results:
        for reason in r["refusals"]:
            key = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "#", reason)[:160]
            refusals[key] = refusals.get(key, 0) + 1
    for key, n in sorted(refusals.items(), key=lambda kv: -kv[1]):
        print("planfuzz: refused %d x: %s" % (n, key))
    kinds = {}
    for r in results:
        if r["status"] == "ok":
            for k in r["kinds"]:
                kinds[k] = kinds.get(k, 0) + 1
    print("planfuzz: blocks run per kind: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    print("planfuzz: seed %d, %d models, %d cases in %.0f s: %d faults, %d mismatches, %d crashes, %d timeouts, "
          "%d refusals, %d models torch could not export" % (args.seed, len(results), cases, time.time() - start,
                                                             counts["fault"], counts["mismatch"], counts["crash"],
                                                             counts["timeout"], sum(refusals.values()),
                                                             counts["export-error"]))
    for r in results:
        if r["status"] == "export-error":
            print("planfuzz: model %d: torch.onnx.export failed: %s" % (r["index"], r["detail"]))
    return 1 if findings or counts["crash"] or counts["timeout"] else 0


if __name__ == "__main__":
    sys.exit(main())
