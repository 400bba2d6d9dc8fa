#!/usr/bin/python3
"""check_trace.py TRACE.json MANIFEST.json [OTHER_TRACE.json]

Checks a `tx8-aot run --trace` file against the Chrome trace-event format and the chip model: valid JSON, every
slice inside the run, each track's slices in time order and never overlapping (an engine runs one instruction at
a time, in issue order), each engine's busy cycles (the sum of its slices) equal to the model's own counter
(cm_engine_busy_cycles, in otherData.engine_busy), each tile's groups in main.c's order, NE slices with MACs, the
DDR traffic within what DDR can move. With OTHER_TRACE, both traces must be the same but for otherData.target.
Prints a one-line summary; exits 1 with the first broken rule.
"""
import collections
import json
import sys


def fail(msg):
    print("check_trace: " + msg)
    sys.exit(1)


def load(path):
    with open(path) as f:
        try:
            return json.load(f)
        except json.JSONDecodeError as e:
            fail("%s: not JSON: %s" % (path, e))


def main():
    trace, manifest = load(sys.argv[1]), load(sys.argv[2])
    meta = trace.get("otherData", {})
    if meta.get("format") != "tx8-trace" or meta.get("version") != 1:
        fail("otherData is not a tx8-trace version 1: %r" % meta)
    cycles, clock = meta["cycles"], meta["clock_mhz"]
    engines, busy = meta["engines"], meta["engine_busy"]
    groups = manifest["groups"]
    if cycles <= 0 or len(engines) != 8 or len(busy) != meta["chip_tiles"]:
        fail("otherData: cycles %r, %d engines, busy for %d tiles" % (cycles, len(engines), len(busy)))
    events = trace["traceEvents"]
    tracks = collections.defaultdict(list)
    named = set()
    counters = collections.defaultdict(list)
    for e in events:
        ph = e.get("ph")
        if ph == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            continue
        if ph == "C":
            counters[(e["pid"], e["name"])].append(e)
            continue
        if ph != "X":
            fail("an event of phase %r: %r" % (ph, e))
        a = e["args"]
        start, dur = a["start_cycle"], a["cycles"]
        if not (isinstance(start, int) and isinstance(dur, int) and start >= 0 and dur >= 0):
            fail("a slice without integer cycles: %r" % e)
        if start + dur > cycles:
            fail("a slice ends at cycle %d, after the run's %d: %r" % (start + dur, cycles, e))
        if abs(e["ts"] - start / clock) > 1e-6 or abs(e["dur"] - dur / clock) > 1e-6:
            fail("ts/dur are not the cycles at %d MHz: %r" % (clock, e))
        tracks[(e["pid"], e["tid"])].append(e)
    if not tracks:
        fail("no slices")
    engine_cycles = collections.Counter()
    ne_macs = 0
    for (pid, tid), slices in tracks.items():
        if (pid, tid) not in named:
            fail("track (%d, %d) has no thread_name" % (pid, tid))
        end = 0
        for e in slices:  # in file order: each track's slices must already be in time order
            a = e["args"]
            if a["start_cycle"] < end:
                fail("track %s of tile %d: a slice starts at %d, before the previous one ended (%d): %r"
                     % (engines[tid] if tid < 8 else tid, pid, a["start_cycle"], end, e))
            end = a["start_cycle"] + a["cycles"]
            if tid < 8:
                if e["cat"] != engines[tid]:
                    fail("a slice on engine %s has category %s" % (engines[tid], e["cat"]))
                engine_cycles[(pid, tid)] += a["cycles"]
                if not -1 <= a["group"] < len(groups):
                    fail("a slice names group %d of %d" % (a["group"], len(groups)))
                if engines[tid] == "NE":
                    if a.get("macs", 0) <= 0:
                        fail("an NE slice without MACs: %r" % e)
                    ne_macs += a["macs"]
        if tid == 101:  # the groups: main.c's order, each once per tile
            seq = [e["args"]["group"] for e in slices]
            if seq != sorted(seq) or len(set(seq)) != len(seq) or seq[-1] >= len(groups):
                fail("tile %d runs groups %r" % (pid, seq))
    for t, row in enumerate(busy):
        for k, b in enumerate(row):
            if engine_cycles[(t, k)] != b:
                fail("tile %d engine %s: slices sum to %d cycles, the model counted %d"
                     % (t, engines[k], engine_cycles[(t, k)], b))
    ddr = counters[(meta["chip_tiles"], "DDR bandwidth")]
    cap = manifest["hardware"]["ddr_bytes_per_cycle"]
    moved = 0.0
    for i, c in enumerate(ddr):
        rate = c["args"]["bytes_per_cycle"]
        if rate < 0:
            fail("negative DDR bandwidth: %r" % c)
        nxt = ddr[i + 1]["ts"] if i + 1 < len(ddr) else cycles / clock
        moved += rate * (nxt - c["ts"]) * clock
    if moved > cap * cycles * (1 + 1e-9):
        fail("%.0f DDR bytes in %d cycles: more than %d bytes/cycle can move" % (moved, cycles, cap))
    for (pid, name), cs in counters.items():
        ts = [c["ts"] for c in cs]
        if ts != sorted(ts):
            fail("counter %s of %d is not in time order" % (name, pid))
    if len(sys.argv) > 3:
        other = load(sys.argv[3])
        other["otherData"]["target"] = meta["target"]
        if other != trace:
            fail("%s and %s differ beyond their target" % (sys.argv[1], sys.argv[3]))
    slices = sum(len(s) for s in tracks.values())
    print("trace ok: %d slices on %d tracks of %d tiles, %d cycles, %d NE MACs, %.0f DDR bytes%s"
          % (slices, len(tracks), len({p for p, _ in tracks}), cycles, ne_macs, moved,
             ", identical to " + sys.argv[3] if len(sys.argv) > 3 else ""))


main()
