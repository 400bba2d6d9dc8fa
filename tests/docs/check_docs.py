#!/usr/bin/python3
"""The docs check (ctest label "docs"): the commands in README.md and docs/*.md run, and their links resolve.

Convention (docs/README.md, "Conventions"): every fenced block whose language is sh, bash, shell or console has a
marker on the line right before its fence, an HTML comment that renders as nothing:

    <!-- run -->              each command of the block is run by this check
    <!-- no-run: REASON -->   not run; REASON says why (too slow, needs root, runs elsewhere ...)

A block without a marker is an error, so no command slips in unchecked. Other fences (text, mlir, c, json, python,
plain ```) are output or code, never run; one of them preceded by <!-- file: NAME --> is written to NAME in the
page's work directory before the commands after it run (an input file the page's commands read).

How a runnable block runs: each page gets its own fresh work directory holding the demo CNN as
models/make_demo_cnn.py writes it (model.onnx, test_data_set_0/input_0.pb); the page's runnable blocks run there
in page order, so a later block sees the files an earlier one wrote. A command is a line (a trailing backslash
continues it; comment-only and blank lines are skipped); each runs alone as `bash -o pipefail -c COMMAND` with the
build's bin dir first on PATH, and must exit 0 within the timeout. Commands that need the RISC-V sub-build (they
mention `riscv`) are skipped when the build has none (--riscv 0).

Links: every relative link [text](target) outside code in those files must name an existing file or directory,
and a #fragment into a Markdown file must name one of its headings (GitHub's anchors).

Usage: check_docs.py --source-dir SRC --bin-dir BIN [--riscv 0|1] [--timeout S] [--work DIR] [--links-only]
                     [--list] [FILE.md ...]
Exit 0 when everything passed, 1 with one `file:line: ...` line per failure.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SHELL_LANGS = {"sh", "bash", "shell", "console"}
RUN_RE = re.compile(r"^\s*<!--\s*run\s*-->\s*$")
NORUN_RE = re.compile(r"^\s*<!--\s*no-run:\s*(\S.*?)\s*-->\s*$")
FILE_RE = re.compile(r"^\s*<!--\s*file:\s*([A-Za-z0-9_.-]+)\s*-->\s*$")
FENCE_RE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`]*)$")
LINK_RE = re.compile(r"(?<!\!)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE_RE = re.compile(r"(`+).*?\1")


def doc_files(src):
    files = [os.path.join(src, "README.md")]
    docs = os.path.join(src, "docs")
    if os.path.isdir(docs):
        files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return files


def parse(path):
    """Returns (blocks, prose): blocks = [(fence line no., lang, marker, reason, [(line no., command)])],
    prose = [(line no., text)] for the lines outside fences, errors = [(line no., message)]."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, prose, errors = [], [], []
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            prose.append((i + 1, lines[i]))
            i += 1
            continue
        fence, info = m.group(2), m.group(3).strip()
        lang = info.split()[0].lower() if info else ""
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence), lines[i]):
            body.append((i + 1, lines[i]))
            i += 1
        if i == len(lines):
            errors.append((start, "code fence never closed"))
        i += 1
        prev = lines[start - 2] if start >= 2 else ""
        if FILE_RE.match(prev):
            name = FILE_RE.match(prev).group(1)
            blocks.append((start, lang, "file", name, [(no, text) for no, text in body]))
            continue
        if lang not in SHELL_LANGS:
            continue
        if RUN_RE.match(prev):
            marker, reason = "run", ""
        elif NORUN_RE.match(prev):
            marker, reason = "no-run", NORUN_RE.match(prev).group(1)
        else:
            errors.append((start, "a ```%s block needs <!-- run --> or <!-- no-run: REASON --> on the line before "
                                  "its fence" % lang))
            continue
        commands, pending, first = [], "", 0
        for no, text in body:
            stripped = text.strip()
            if not pending and (not stripped or stripped.startswith("#")):
                continue
            if not pending:
                first = no
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            commands.append((first, pending + stripped))
            pending = ""
        if pending:
            commands.append((first, pending))
        blocks.append((start, lang, marker, reason, commands))
    return blocks, prose, errors


def slug(heading):
    """GitHub's anchor of a heading: markup dropped, lower case, punctuation but - and _ removed, spaces to -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, counts = set(), {}
        _, prose, _ = parse(path)
        for _, text in prose:
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", text)
            if m:
                base = slug(m.group(1))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else "%s-%d" % (base, n))
        cache[path] = found
    return cache[path]


def check_links(src, path, prose):
    failures, notes = [], []
    rel = os.path.relpath(path, src)
    for no, text in prose:
        for m in LINK_RE.finditer(INLINE_CODE_RE.sub("", text)):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: ...
                continue
            file_part, _, fragment = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            dest_rel = os.path.relpath(dest, src)
            if not os.path.exists(dest):
                failures.append("%s:%d: broken link: %s (no %s)" % (rel, no, target, dest_rel))
                continue
            if fragment and dest.endswith(".md") and fragment not in anchors(dest):
                failures.append("%s:%d: broken link: %s (%s has no heading with anchor #%s)"
                                % (rel, no, target, dest_rel, fragment))
    return failures, notes


def run_commands(src, path, blocks, args, model_dir):
    rel = os.path.relpath(path, src)
    if not any(marker == "run" for (_, _, marker, _, _) in blocks):
        return [], 0, 0
    page = os.path.join(args.work, re.sub(r"[^A-Za-z0-9_.-]", "_", rel))
    shutil.rmtree(page, ignore_errors=True)
    shutil.copytree(model_dir, page)
    env = dict(os.environ)
    env["PATH"] = os.path.abspath(args.bin_dir) + os.pathsep + env.get("PATH", "")
    env.setdefault("TX8_PROGRESS", "0")
    failures, ran, skipped = [], 0, 0
    steps = []
    for _, _, marker, name, body in blocks:
        if marker == "file":
            steps.append((name, body))
        elif marker == "run":
            steps += [(None, c) for c in body]
    for name, item in steps:
        if name is not None:  # a <!-- file: NAME --> block: written for the commands after it
            with open(os.path.join(page, name), "w", encoding="utf-8") as f:
                f.write("".join(text + "\n" for _, text in item))
            continue
        no, cmd = item
        if not args.riscv and "riscv" in cmd:
            print("%s:%d: skipped (no RISC-V build): %s" % (rel, no, cmd))
            skipped += 1
            continue
        t0 = time.monotonic()
        try:
            p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=page, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.timeout)
            status, out = p.returncode, p.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            status, out = "a timeout (%g s)" % args.timeout, (e.stdout or b"").decode("utf-8", "replace")
        ran += 1
        took = time.monotonic() - t0
        if status != 0:
            tail = "\n".join("    " + l for l in out.rstrip("\n").split("\n")[-15:])
            failures.append("%s:%d: `%s` ended with %s (in %s):\n%s"
                            % (rel, no, cmd, "exit %s" % status if isinstance(status, int) else status, page, tail))
        elif args.verbose:
            print("%s:%d: ok (%.2f s): %s" % (rel, no, took, cmd))
    return failures, ran, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--bin-dir", help="the build's bin dir (tx8-aot); needed unless --links-only")
    ap.add_argument("--riscv", type=int, default=1, help="0: skip the commands that need the RISC-V sub-build")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per command (default 60)")
    ap.add_argument("--work", help="work directory (default: a temporary one, removed after)")
    ap.add_argument("--links-only", action="store_true", help="check the markers and the links, run nothing")
    ap.add_argument("--list", action="store_true", help="print the runnable commands as file:line: command")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="*", help="Markdown files (default: README.md and docs/*.md)")
    args = ap.parse_args()
    src = os.path.abspath(args.source_dir)
    files = [os.path.abspath(f) for f in args.files] or doc_files(src)
    t0 = time.monotonic()

    failures, notes, parsed = [], [], []
    for path in files:
        blocks, prose, errors = parse(path)
        rel = os.path.relpath(path, src)
        failures += ["%s:%d: %s" % (rel, no, msg) for no, msg in errors]
        f, n = check_links(src, path, prose)
        failures, notes = failures + f, notes + n
        parsed.append((path, blocks))
    if args.list:
        for path, blocks in parsed:
            for _, _, marker, _, cmds in blocks:
                for no, cmd in cmds if marker == "run" else []:
                    print("%s:%d: %s" % (os.path.relpath(path, src), no, cmd))
        return 0

    ran = skipped = 0
    if not args.links_only and not failures:
        if not args.bin_dir or not os.access(os.path.join(args.bin_dir, "tx8-aot"), os.X_OK):
            print("check_docs: --bin-dir must hold tx8-aot (or pass --links-only)", file=sys.stderr)
            return 2
        own_work = args.work is None
        args.work = args.work or tempfile.mkdtemp(prefix="tx8-docs-")
        os.makedirs(args.work, exist_ok=True)
        model_dir = os.path.join(args.work, "demo-model")
        shutil.rmtree(model_dir, ignore_errors=True)
        python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable  # Debian's numpy, onnx
        subprocess.run([python, os.path.join(src, "models", "make_demo_cnn.py"), model_dir], check=True,
                       stdout=subprocess.DEVNULL)
        for path, blocks in parsed:
            f, r, s = run_commands(src, path, blocks, args, model_dir)
            failures, ran, skipped = failures + f, ran + r, skipped + s
        if own_work and not failures:
            shutil.rmtree(args.work, ignore_errors=True)

    for n in notes:
        print(n)
    for f in failures:
        print(f)
    blocks = sum(len(b) for _, b in parsed)
    print("check_docs: %d files, %d shell blocks, %d commands run, %d skipped, %d failures in %.1f s"
          % (len(files), blocks, ran, skipped, len(failures), time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
