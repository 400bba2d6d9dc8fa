#!/usr/bin/env bash
# Runs `tx8-aot test-onnx` on every ONNX backend test (node, pytorch-converted, pytorch-operator, simple) for one
# target and prints how many pass per suite, and why the others do not, grouped.
#   scripts/onnx-sweep.sh [--target reference|cmodel|riscv] [--jobs N] [--aot PATH] [--out DIR] [DATA_DIR]
# DATA_DIR: default /usr/share/libonnx-testdata/data (Debian's libonnx-testdata). --aot: default build/bin/tx8-aot.
# --out: where results.tsv (suite, test, exit code, seconds, first error line) and summary.txt go (default
# build/onnx-sweep-<target>); the time column is in milliseconds, a sixth column holds a device pass's simulated
# cycles. --same-as OTHER/results.tsv: also lists every test whose outcome or cycles differ from that sweep's.
# --jobs: parallel tests (default: the number of cores). Each test gets 300 s.
# Exit codes of test-onnx: 0 pass, 1 refused (one-line error), 3 wrong answer; anything else is a crash or a hang.
# The script exits 1 if any test gave a wrong answer, crashed or hung.
set -euo pipefail
cd "$(dirname "$0")/.."
target=cmodel jobs=$(nproc) aot=build/bin/tx8-aot out="" same_as="" data=/usr/share/libonnx-testdata/data
while [ $# -gt 0 ]; do
  case $1 in
    --target) target=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --aot) aot=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --same-as) same_as=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "onnx-sweep: unknown option $1" >&2; exit 2 ;;
    *) data=$1; shift ;;
  esac
done
case $target in reference|cmodel|riscv) ;; *) echo "onnx-sweep: --target must be reference, cmodel or riscv" >&2; exit 2 ;; esac
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "onnx-sweep: --jobs must be a positive number" >&2; exit 2; }
[ -x "$aot" ] || { echo "onnx-sweep: no tx8-aot at $aot (build first, or pass --aot)" >&2; exit 2; }
[ -d "$data/node" ] || { echo "onnx-sweep: no ONNX test data in $data (install libonnx-testdata)" >&2; exit 2; }
out=${out:-build/onnx-sweep-$target}
mkdir -p "$out/runs"
aot=$(cd "$(dirname "$aot")" && pwd)/$(basename "$aot")

# one SUITE DIR: runs one test, writes runs/<suite>.<test>.tsv
one() {
  local suite=$1 dir=$2 name start rc err first log cycles
  name=$(basename "$dir")
  start=$(date +%s%N)
  log=$(mktemp)
  err=$(timeout 300 "$aot" test-onnx "$dir" --target "$target" 2>&1 >"$log") && rc=0 || rc=$?
  # A pass on a device target reports its simulated cycles: kept so that two targets' sweeps can be compared.
  cycles=$(sed -n 's/.*, \([0-9]*\) simulated cycles per run.*/\1/p' "$log" | tail -1)
  rm -f "$log"
  # The first error line; for "N problems:" the first problem.
  first=$(printf '%s\n' "$err" | grep -v '^ *$' | head -2 | tr '\t' ' ' | sed -e 's/^ *//' | paste -sd '\t')
  case ${first%%$'\t'*} in *problem:|*problems:) first=${first#*$'\t'} ;; *) first=${first%%$'\t'*} ;; esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$suite" "$name" "$rc" "$(( ($(date +%s%N) - start) / 1000000 ))" \
    "${first:0:400}" "$cycles" >"$out/runs/$suite.$name.tsv"
}
export -f one
export aot target out

start=$(date +%s)
rm -f "$out"/runs/*.tsv
for suite in node pytorch-converted pytorch-operator simple; do
  for dir in "$data/$suite"/test_*; do [ -d "$dir" ] || continue; printf '%s\0%s\0' "$suite" "$dir"; done
done | xargs -0 -n 2 -P "$jobs" bash -c 'one "$0" "$1"'
cat "$out"/runs/*.tsv | sort >"$out/results.tsv"
wall=$(( $(date +%s) - start ))

/usr/bin/python3 - "$out/results.tsv" "$target" "$wall" "$jobs" "$same_as" <<'PY' | tee "$out/summary.txt"
import collections, re, sys
path, target, wall, jobs, same_as = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
suites = ["node", "pytorch-converted", "pytorch-operator", "simple"]
count = collections.Counter()
for suite, name, rc, ms, err, *cycles in rows:
    kind = {"0": "pass", "1": "refused", "3": "wrong"}.get(rc, "crash/hang")
    count[(suite, kind)] += 1
    count[("all", kind)] += 1
    count[(suite, "tests")] += 1
    count[("all", "tests")] += 1
print(f"target {target}: {len(rows)} tests in {wall} s ({jobs} jobs)\n")
print("| suite | tests | pass | refused | wrong | crash/hang |")
print("| --- | --- | --- | --- | --- | --- |")
for s in suites + ["all"]:
    print(f"| {s} | {count[(s, 'tests')]} | **{count[(s, 'pass')]}** | {count[(s, 'refused')]} | "
          f"{count[(s, 'wrong')]} | {count[(s, 'crash/hang')]} |")

def reason(err):
    """The refusal without the file, the node's name and the numbers: what groups alike failures."""
    r = re.sub(r"^tx8-aot: error: ", "", err)
    r = re.sub(r"^\S+: ", "", r)                      # the model file
    r = re.sub(r"cannot import the model(: |; \d+ problems?:)", "import: ", r)
    r = re.sub(r"^(import: )?\S+\.onnx: ", r"\1", r)
    r = re.sub(r"node (#\d+|'[^']*') \(([^,]+), domain [^)]*\)", r"\2", r)
    r = re.sub(r"node (#\d+|'[^']*') \(onnx\.([^)]+)\)", r"\2", r)
    r = r.split(" (codegen supports")[0]              # the list of what codegen supports
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\b\d+\b", "N", r)
    return r[:160]

bad = [(s, n, rc, e) for s, n, rc, _, e, *_ in rows if rc not in ("0", "1")]
if bad:
    print("\nwrong answers, crashes and hangs:")
    for s, n, rc, e in bad:
        print(f"  {s}/{n}: exit {rc}: {e[:200]}")
groups = collections.Counter(reason(e) for s, n, rc, _, e, *_ in rows if rc == "1")
print(f"\nrefusals by reason ({sum(groups.values())}; the first error line of each test):")
for r, c in groups.most_common():
    print(f"{c:5d}  {r}")
differ = []
if same_as:
    other = {(r[0], r[1]): r for r in (line.rstrip("\n").split("\t") for line in open(same_as) if line.strip())}
    for row in rows:
        o = other.get((row[0], row[1]))
        mine = (row[2], row[5] if len(row) > 5 else "")
        theirs = (o[2], o[5] if len(o) > 5 else "") if o else None
        if theirs != mine:
            differ.append(f"  {row[0]}/{row[1]}: exit {mine[0]} cycles {mine[1] or '-'} here, "
                          f"{'absent' if o is None else f'exit {theirs[0]} cycles {theirs[1] or chr(45)}'} in {same_as}")
    same = sum(1 for row in rows if row[2] == "0") - sum(1 for d in differ if ": exit 0 " in d)
    print(f"\nagainst {same_as}: {len(differ)} tests differ in outcome or cycles; {same} passes agree")
    for d in differ:
        print(d)
sys.exit(1 if bad or differ else 0)
PY
