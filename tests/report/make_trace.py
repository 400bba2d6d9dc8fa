#!/usr/bin/python3
"""make_trace.py BUNDLE OUT.json [--slices N] [--seed S] [--engine-order isa|brief] [--tiles T]

Writes a synthetic tx8 trace (the "tx8-trace" version 1 schema `tx8-aot run --trace` writes: Chrome trace events,
cycles in the args) for the groups of a compiled bundle, so that `tx8-aot report` can be tested and measured
before, and independently of, real traces. Deterministic: the same bundle, options and seed give the same bytes.

Each group of the manifest (views excepted) runs on the tiles with a step: per tile a sequence of (RDMA load,
compute, WDMA store) triples, the compute an NE instruction with MACs for Conv/MatMul/Gemm groups and a CT one
otherwise; tile 0 multicasts one DTE transfer from DDR per NE group; each tile's "group" span ends at its last
instruction, then a barrier until the slowest tile. A group's simulated time is its estimate_cycles times a
factor in [0.8, 1.3] drawn from the seed. --slices sets roughly how many instruction slices to write in all (at
least one triple per step). SPM occupancy per tile and the chip's DDR bandwidth are written as counters.
"""
import argparse
import json
import random
import sys

ISA_ORDER = ["CT", "NE", "RDMA", "WDMA", "TDMA", "SCALAR", "DTE", "CSR"]  # OP_INSTR_TYPE order
BRIEF_ORDER = ["SCALAR", "CT", "NE", "RDMA", "WDMA", "TDMA", "DTE", "CSR"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("out")
    ap.add_argument("--slices", type=int, default=0, help="about this many instruction slices (default: one triple per step)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine-order", choices=("isa", "brief"), default="isa")
    ap.add_argument("--tiles", type=int, default=0, help="write this tile count (default: the manifest's)")
    args = ap.parse_args()

    manifest = json.load(open(args.bundle + "/manifest.json"))
    hw = manifest["hardware"]
    clock = hw["clock_mhz"]
    tiles = args.tiles or manifest["tiles"]
    engines = ISA_ORDER if args.engine_order == "isa" else BRIEF_ORDER
    eng = {name: i for i, name in enumerate(engines)}
    rng = random.Random(args.seed)
    precision = manifest.get("precision", "fp32")
    macs_per_cycle = hw["ne_macs_per_cycle_" + precision]

    groups = [g for g in manifest["groups"] if g["op"] != "view"]
    tile_groups = sum(max(1, sum(1 for s in g["steps"] if s > 0)) for g in groups)
    per_tile_triples = max(1, args.slices // (3 * max(1, tile_groups))) if args.slices else 0

    events = []
    busy = [[0] * len(engines) for _ in range(tiles)]
    us = lambda c: round(c / clock, 3)

    for t in range(tiles + 1):
        events.append({"ph": "M", "pid": t, "name": "process_name",
                       "args": {"name": "chip" if t == tiles else "tile %d" % t}})
    for t in range(tiles):
        for e, name in enumerate(engines):
            events.append({"ph": "M", "pid": t, "tid": e, "name": "thread_name", "args": {"name": name}})
        events.append({"ph": "M", "pid": t, "tid": 100, "name": "thread_name", "args": {"name": "barrier"}})
        events.append({"ph": "M", "pid": t, "tid": 101, "name": "thread_name", "args": {"name": "group"}})

    def slice_(tile, tid, name, cat, start, cycles, **extra):
        a = {"start_cycle": start, "cycles": cycles}
        a.update(extra)
        events.append({"ph": "X", "pid": tile, "tid": tid, "name": name, "cat": cat, "ts": us(start),
                       "dur": us(cycles), "args": a})
        if tid < len(engines):
            busy[tile][tid] += cycles

    # Start-up before the first group (group -1): the scalar core's set-up on tile 0.
    slice_(0, eng["SCALAR"], "SCALAR setup", "SCALAR", 0, 40, group=-1)
    cursor = 64
    ddr_points = [(0, 0.0)]
    for t in range(tiles):
        events.append({"ph": "C", "pid": t, "name": "SPM bytes", "ts": 0.0, "args": {"bytes": 0}})
    for g in groups:
        index = g["group"]
        op = g["op"]
        ne = op.split("+")[0] in ("Conv", "MatMul", "Gemm")
        sim = max(8, int(g.get("estimate_cycles", 1000) * rng.uniform(0.8, 1.3)))
        active = [t for t, s in enumerate(g["steps"]) if s > 0 and t < tiles] or [0]
        # DDR traffic within what DDR can carry (the loads and stores take 40 % of each tile's time) and NE work
        # within the peak, so that every group sits under its roofs.
        bytes_per_cycle = rng.uniform(0.05, 1.0) * hw["ddr_bytes_per_cycle"] / len(active) / 0.4
        ne_efficiency = rng.uniform(0.05, 0.95)
        nodes = ",".join("%s_%d_%s" % (op.split("+")[0].lower(), index, k) for k in range(len(op.split("+"))))
        ddr_bytes = 0
        for k, t in enumerate(active):
            # The slowest tile (the first) takes the whole group; the others finish a little earlier.
            span = sim if k == 0 else max(4, int(sim * rng.uniform(0.85, 1.0)))
            triples = max(g["steps"][t] if t < len(g["steps"]) else 1, per_tile_triples)
            triples = max(1, min(triples, span // 4))
            period = span // triples
            start = cursor
            for r in range(triples):
                s0 = cursor + r * period
                load, comp = max(1, period * 3 // 10), max(1, period * 6 // 10)
                store = max(1, period - load - comp)
                bl, bs = int(load * bytes_per_cycle), int(store * bytes_per_cycle)
                slice_(t, eng["RDMA"], "RDMA load", "RDMA", s0, load, group=index, bytes=bl)
                if ne:
                    slice_(t, eng["NE"], "NE conv" if op.startswith("Conv") else "NE gemm", "NE", s0 + load, comp,
                           group=index, macs=int(comp * macs_per_cycle * ne_efficiency), in_fmt=precision)
                else:
                    slice_(t, eng["CT"], "CT " + op.lower(), "CT", s0 + load, comp, group=index, bytes=comp * 64)
                slice_(t, eng["WDMA"], "WDMA store", "WDMA", s0 + load + comp, store, group=index, bytes=bs)
                ddr_bytes += bl + bs
            if ne and k == 0:
                slice_(t, eng["DTE"], "DTE multicast", "DTE", cursor, max(1, span // 10), group=index,
                       bytes=4096, from_ddr=1)
                ddr_bytes += 4096
            end = cursor + span
            events.append({"ph": "X", "pid": t, "tid": 101, "name": "group %d: %s" % (index, op), "cat": "group",
                           "ts": us(start), "dur": us(span),
                           "args": {"group": index, "nodes": nodes, "start_cycle": start, "cycles": span}})
            if end < cursor + sim:
                events.append({"ph": "X", "pid": t, "tid": 100, "name": "barrier", "cat": "barrier", "ts": us(end),
                               "dur": us(cursor + sim - end), "args": {"start_cycle": end, "cycles": cursor + sim - end}})
            events.append({"ph": "C", "pid": t, "name": "SPM bytes", "ts": us(start),
                           "args": {"bytes": g.get("spm_bytes", 0)}})
            events.append({"ph": "C", "pid": t, "name": "SPM bytes", "ts": us(cursor + sim), "args": {"bytes": 0}})
        ddr_points.append((cursor, round(ddr_bytes / sim, 3)))
        cursor += sim + 64  # the group's barrier
        ddr_points.append((cursor - 64, 0.0))
    for c, bpc in ddr_points:
        events.append({"ph": "C", "pid": tiles, "name": "DDR bandwidth", "ts": us(c), "args": {"bytes_per_cycle": bpc}})

    trace = {"displayTimeUnit": "ns",
             "otherData": {"format": "tx8-trace", "version": 1, "model": manifest["model"]["name"],
                           "target": manifest["target"], "clock_mhz": clock, "tiles": tiles, "chip_tiles": tiles,
                           "cycles": cursor,
                           "engines": engines, "engine_busy": busy},
             "traceEvents": events}
    with open(args.out, "w") as f:
        json.dump(trace, f, separators=(",", ":"))
    slices = sum(1 for e in events if e["ph"] == "X")
    print("%s: %d groups, %d tiles, %d slices, %d cycles" % (args.out, len(groups), tiles, slices, cursor))


if __name__ == "__main__":
    sys.exit(main())
