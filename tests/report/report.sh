#!/usr/bin/env bash
# report.sh TX8_AOT MAKE_DEMO_CNN WORK_DIR
# tx8-aot report end to end: the demo CNN compiled to a bundle, a trace of a run of it, the page written twice
# (the same bytes), checked to reference nothing outside itself, then loaded in headless chromium: no console
# message or exception, every section drawn, one table row per group, one roofline point per group with MACs,
# one box per group in the graph. A second bundle whose model name is markup checks that names stay text.
# Exits 77 (ctest SKIP) only when chromium is not installed.
set -euo pipefail
aot=$1 make=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it): the page cannot be loaded"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/bundle" --quiet

# trace BUNDLE OUT: a trace of a run of BUNDLE on the demo CNN's inputs (tx8-aot run --trace). TX8_REPORT_TRACE=FILE
# uses that trace (of the demo CNN's bundle) instead.
trace() {
  if [ -n "${TX8_REPORT_TRACE:-}" ]; then
    cp "$TX8_REPORT_TRACE" "$2"
  else
    "$aot" run "$1" --inputs-dir "$work/model/test_data_set_0" --out "$work/out" --trace "$2" >/dev/null
  fi
}

# load PAGE NAME: the page in headless chromium, its DOM after the script ran in $work/NAME.dom.html; fails on any
# console message (the page logs nothing unless a section failed) and unless the page marked itself drawn.
load() {
  local page=$1 name=$2
  # No network: every host name resolves to nothing, so a reference that slipped through cannot load.
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$work/profile-$name" --host-resolver-rules="MAP * ~NOTFOUND" \
    --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$work/$name.dom.html" 2>"$work/$name.chromium.log"
  if grep -q 'CONSOLE' "$work/$name.chromium.log"; then
    echo "FAIL: $name: the page logged to the console:"
    grep 'CONSOLE' "$work/$name.chromium.log"
    exit 1
  fi
  grep -q 'data-rendered="yes"' "$work/$name.dom.html" || {
    echo "FAIL: $name: the page's script did not finish drawing"
    grep -o 'data-error="[^"]*"' "$work/$name.dom.html" || true
    exit 1
  }
}

trace "$work/bundle" "$work/trace.json"
"$aot" report "$work/bundle" --trace "$work/trace.json" -o "$work/report.html"
"$aot" report "$work/bundle" --trace "$work/trace.json" -o "$work/again.html" >/dev/null
cmp "$work/report.html" "$work/again.html" || { echo "FAIL: two reports of the same inputs differ"; exit 1; }
# Without --trace, report runs the bundle itself (zeros as inputs: the chip model's cycles do not depend on the
# values), so its page is the one of the traced run.
if [ -z "${TX8_REPORT_TRACE:-}" ]; then
  "$aot" report "$work/bundle" -o "$work/self.html" >/dev/null
  cmp "$work/report.html" "$work/self.html" || { echo "FAIL: report's own run gives another page"; exit 1; }
fi
load "$work/report.html" demo

/usr/bin/python3 - "$work/report.html" "$work/demo.dom.html" "$work/bundle/manifest.json" "$work/trace.json" <<'PY'
import json, re, sys
from html.parser import HTMLParser

page_path, dom_path, manifest_path, trace_path = sys.argv[1:5]
page = open(page_path, encoding="utf-8").read()
failures = []

def check(ok, what):
    if not ok:
        failures.append(what)

# Self-contained: no URL, no element that loads anything, no CSS import or url().
for text in ("http://", "https://", "url(", "@import", "<link", "<img", "<iframe", "<object", "<embed"):
    check(text not in page, "the page holds %r" % text)

class Elements(HTMLParser):
    """Every element with its attributes; the text of each element with an id; per id, the ids of its ancestors."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.stack, self.text = [], [], {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a, [e[1].get("id") for e in self.stack if e[1].get("id")],
                              [e[1].get("class", "") for e in self.stack]))
        if tag not in ("meta", "br", "input", "hr", "img", "link", "col", "wbr"):
            self.stack.append((tag, a))
    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
    def handle_data(self, data):
        for tag, a in self.stack:
            if a.get("id"):
                self.text[a["id"]] = self.text.get(a["id"], "") + data

raw = Elements()
raw.feed(page)
for tag, attrs, _, _ in raw.elements:
    check("src" not in attrs, "<%s src=%r>" % (tag, attrs.get("src")))
    href = attrs.get("href")
    check(href is None or href.startswith("#"), "<%s href=%r>: not a link within the page" % (tag, href))
    check(not any(k.startswith("on") for k in attrs), "<%s> has an event handler attribute" % tag)

dom = Elements()
dom.feed(open(dom_path, encoding="utf-8").read())

def inside(ancestor_id, tag, cls=None):
    """The elements `tag` (of class `cls`, not a legend's key) within the element `ancestor_id`."""
    return [a for t, a, ids, _ in dom.elements
            if t == tag and ancestor_id in ids and (cls is None or cls in a.get("class", "").split())
            and "legend" not in a.get("class", "").split()]

manifest = json.load(open(manifest_path))
trace = json.load(open(trace_path))
groups = [g for g in manifest["groups"] if g["op"] != "view"]
macs = {}
engines = trace["otherData"]["engines"]
for e in trace["traceEvents"]:
    if e.get("ph") == "X" and 0 <= e.get("tid", -1) < len(engines) and engines[e["tid"]] == "NE":
        macs[e["args"].get("group")] = macs.get(e["args"].get("group"), 0) + e["args"].get("macs", 0)
computing = [g for g in groups if macs.get(g["group"], 0) > 0]
tiles = trace["otherData"]["tiles"]

ids = {a.get("id") for _, a, _, _ in dom.elements}
for section in ("summary", "groups", "roofline", "engines", "memory", "top", "graph"):
    check(section in ids, "no #%s section" % section)
check(len(inside("summary-cards", "div", "card")) >= 10, "the summary has fewer than 10 cards")
check(len(inside("groups-table", "tr")) == len(groups) + 1,
      "#groups-table: %d rows, expected a heading and %d groups" % (len(inside("groups-table", "tr")), len(groups)))
check(len(inside("groups-chart", "rect", "bar-sim")) == len(groups), "#groups-chart: not one simulated bar per group")
check(len(inside("roofline-plot", "circle", "point")) == len(computing),
      "#roofline-plot: %d points, expected %d (the groups with MACs)"
      % (len(inside("roofline-plot", "circle", "point")), len(computing)))
check(len(inside("ct-chart", "rect", "bar-ddr")) == len(groups) - len(computing),
      "#ct-chart: not one bar per group without MACs")
check(len(inside("engines-table", "tr")) == tiles + 2, "#engines-table: not a row per tile, a heading and the average")
check(len(inside("spm-chart", "polyline")) == tiles, "#spm-chart: not one line per tile")
check(len(inside("ddr-chart", "polygon")) == 1, "#ddr-chart: no area")
check(len(inside("ddr-split", "rect")) == 2, "#ddr-split: not constants and activations")
check(len(inside("top-table", "tr")) == min(10, len(groups)) + 1, "#top-table: not the top groups")
check(len(inside("graph-svg", "g", "box")) == len(manifest["groups"]), "#graph-svg: not one box per group")
for g in manifest["groups"]:
    check(("g%d %s" % (g["group"], g["op"]))[:23] in dom.text.get("graph-svg", ""), "#graph-svg: no box of group %d" % g["group"])

if failures:
    print("FAIL: " + "\n      ".join(failures))
    sys.exit(1)
print("report of the demo CNN: %d bytes; drawn in chromium: %d groups, %d roofline points, %d tiles"
      % (len(page.encode()), len(groups), len(computing), tiles))
PY

# A model whose name is markup: the page shows it as text, and no element of it appears.
/usr/bin/python3 - "$work/model/model.onnx" "$work/evil.onnx" <<'PY'
import sys, onnx
m = onnx.load(sys.argv[1])
m.graph.name = "demo</script><script>document.title='x'</script><img src=x onerror=alert(1)>&amp;\u2028"
onnx.save(m, sys.argv[2])
PY
"$aot" compile "$work/evil.onnx" -o "$work/evil-bundle" --quiet
trace "$work/evil-bundle" "$work/evil-trace.json"
"$aot" report "$work/evil-bundle" --trace "$work/evil-trace.json" -o "$work/evil.html" >/dev/null
load "$work/evil.html" evil
/usr/bin/python3 - "$work/evil.dom.html" <<'PY'
import sys
from html.parser import HTMLParser
name = "demo</script><script>document.title='x'</script><img src=x onerror=alert(1)>&amp;\u2028"
class Page(HTMLParser):
    """The elements' tags, and the text of the page's title (the first <title>: SVG tooltips are <title>s too),
    of its <h1> and of the first summary card (the model's name)."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.where = [], {}, None
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        key = "card" if dict(attrs).get("class") == "v" else tag
        self.where = key if key in ("title", "h1", "card") and key not in self.text else None
        if self.where:
            self.text[key] = ""
    def handle_endtag(self, tag):
        self.where = None
    def handle_data(self, data):
        if self.where:
            self.text[self.where] += data
p = Page()
p.feed(open(sys.argv[1], encoding="utf-8").read())
problems = []
if "img" in p.tags: problems.append("an <img> element from the model's name")
if p.tags.count("script") != 2: problems.append("%d script elements, not 2" % p.tags.count("script"))
for key, want in (("title", "tx8-aot report: " + name), ("h1", "tx8-aot report: " + name), ("card", name)):
    if p.text.get(key) != want: problems.append("%s %r" % (key, p.text.get(key)))
if problems:
    print("FAIL: a model name that is markup: " + "; ".join(problems))
    sys.exit(1)
print("a model name that is markup is shown as text")
PY
echo "report: PASS"
