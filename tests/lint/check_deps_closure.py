#!/usr/bin/python3
"""Fail when a build used a file from a Debian package that scripts/install-deps.sh does not guarantee.

install-deps.sh installs with --no-install-recommends, so a fresh machine gets only the listed packages, their
Depends/Pre-Depends (transitively) and the Essential ones. A build that happens to pick up a file from anything
else (a Recommends that the CI machine had, like libdnnl-dev's ocl-icd-opencl-dev, or a file in /usr/local)
works here and breaks there. This collects the files the given CMake/Ninja build trees used (CMakeCache.txt
entries, the CMake files read at configure time, the tools and libraries on the command lines, the headers in
ninja's deps log), maps them to their packages through dpkg's file lists, and checks each is in that closure.

Programs count as much as files, and many are found by name, not by a path anything records: the linker a
compiler driver resolves for -fuse-ld=lld (Debian's unversioned /usr/bin/ld.lld is only in `lld`), the
assembler and linker it runs, the programs of custom commands, the interpreters of scripts, and what the tests
and the scripts they run call by name (python3, qemu-system-riscv64, chromium, cmake, ...). These are found by
probing each compiler driver with the flags its link commands give (`-v`: the programs it runs), by the first
word of each build command, by ctest's own list of test commands, and by reading the scripts those commands
(and .ci/run) reach for the programs they run; each is resolved on PATH and held to the same closure. A driver
that finds no program for a name (gcc's "cannot find 'ld'") fails the check too.

  check_deps_closure.py --install-script SCRIPT --source-dir SRC [--without PKG]... BUILD_DIR [BUILD_DIR...]
"""
import argparse
import collections
import fnmatch
import glob
import heapq
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

DB_FORMAT = r'${Package}\t${db:Status-Abbrev}\t${Essential}\t${Pre-Depends}\t${Depends}\t${Recommends}' \
            r'\t${Suggests}\t${Provides}\n'
FIELDS = ('Pre-Depends', 'Depends', 'Recommends', 'Suggests')  # edge kinds, in dpkg-query column order
HARD = ('Pre-Depends', 'Depends')  # the only ones apt installs with --no-install-recommends
IGNORED_ROOTS = ('/tmp', '/proc', '/sys', '/dev')
# Probes that a package's CMake config or a Find module makes and tolerates failing, for things this build does not
# use: a fresh machine without them configures and builds the same. Real use would still be caught (a command
# running xmllint, linking libgmock, or a deps log naming gmock headers).
OPTIONAL_CACHE_ENTRIES = {'LIBXML2_XMLLINT_EXECUTABLE'}  # FindLibXml2 (from LLVMConfig): find_program(xmllint)
OPTIONAL_FILES = ('*/cmake/GTest/GMockTargets*.cmake',)  # GTestConfig.cmake: include(GMockTargets.cmake OPTIONAL)
# merged-/usr: dpkg may list a file as /lib/... while the build saw /usr/lib/... (or the other way round)
MERGED = [d for d in ('bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32')
          if os.path.realpath('/' + d) == '/usr/' + d]


def fail_usage(msg):
    print(f'deps_closure: {msg}', file=sys.stderr)
    sys.exit(2)


def parse_relations(text):
    """'a (>= 1) | b:any, c [amd64] <!nocheck>' -> [['a', 'b'], ['c']]"""
    groups = []
    for group in text.split(','):
        alts = [re.sub(r'\(.*?\)|\[.*?\]|<.*?>', '', alt).strip().split(':')[0] for alt in group.split('|')]
        if any(alts):
            groups.append([a for a in alts if a])
    return groups


def read_package_db():
    """Installed packages -> {field: [alternative groups]}, the Essential ones, virtual name -> providers."""
    out = subprocess.run(['dpkg-query', '-W', '-f=' + DB_FORMAT], capture_output=True, text=True, check=True).stdout
    relations, essential, providers = {}, set(), collections.defaultdict(set)
    for line in out.splitlines():
        name, status, ess, *rels, provides = line.split('\t')
        if status[1:2] != 'i':  # second letter = state: 'i' installed ('ii', or 'hi' when held)
            continue
        name = name.split(':')[0]  # multi-arch copies of one package merge
        entry = relations.setdefault(name, {f: [] for f in FIELDS})
        for field, text in zip(FIELDS, rels):
            entry[field] += parse_relations(text)
        if ess == 'yes':
            essential.add(name)
        for group in parse_relations(provides):
            providers[group[0]].add(name)
    return relations, essential, providers


def edges(relations, providers):
    """pkg -> [(field, pkg)]: each relation group resolved to the installed package that satisfies it."""
    def resolve(group):
        real = [a for a in group if a in relations]
        if real:
            return real[0]
        virtual = [sorted(providers[a])[0] for a in group if providers.get(a)]
        return virtual[0] if virtual else None  # nothing installed satisfies it: not our concern
    return {pkg: [(f, t) for f in FIELDS for t in map(resolve, rel[f]) if t] for pkg, rel in relations.items()}


def bfs(roots, graph, fields):
    """Paths from roots over the given edge kinds: pkg -> (parent, field), roots -> None. The path to each
    package has the fewest Recommends/Suggests, then the fewest steps (ties: by name, so deterministic)."""
    parent, best = {r: None for r in roots}, {r: (0, 0) for r in roots}
    heap = [(0, 0, r) for r in sorted(roots)]
    while heap:
        weak, steps, pkg = heapq.heappop(heap)
        if (weak, steps) > best[pkg]:
            continue  # already reached more cheaply
        for field, dep in graph.get(pkg, ()):
            cost = (weak + (field not in HARD), steps + 1)
            if field in fields and cost < best.get(dep, (float('inf'), 0)):
                best[dep], parent[dep] = cost, (pkg, field)
                heapq.heappush(heap, (*cost, dep))
    return parent


def owner_index():
    """Path -> owning packages, from dpkg's file lists (what dpkg -S searches), with diversions applied."""
    owners = collections.defaultdict(list)
    for listfile in glob.glob('/var/lib/dpkg/info/*.list'):
        pkg = os.path.basename(listfile)[:-len('.list')].split(':')[0]
        with open(listfile, encoding='utf-8', errors='surrogateescape') as f:
            for line in f:
                owners[line.rstrip('\n')].append(pkg)
    try:  # lines: diverted path, where the original now lives, diverting package
        with open('/var/lib/dpkg/diversions', encoding='utf-8', errors='surrogateescape') as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        lines = []
    for frm, to, by in zip(lines[0::3], lines[1::3], lines[2::3]):
        original = [p for p in owners.get(frm, []) if p != by]
        if original:
            owners[to] = original
            owners[frm] = [p for p in owners[frm] if p == by]
    return owners


def lookup(owners, path):
    """Owners of path or of its merged-/usr alias, or None."""
    candidates = [path]
    for d in MERGED:
        if path.startswith(f'/{d}/'):
            candidates.append('/usr' + path)
        elif path.startswith(f'/usr/{d}/'):
            candidates.append(path[len('/usr'):])
    for c in candidates:
        if owners.get(c):
            return owners[c]
    return None


def ninja(build_dir, tool):
    program = next((p for p in cache_values(build_dir, 'CMAKE_MAKE_PROGRAM') if os.path.isfile(p)), None)
    program = program or shutil.which('ninja')
    if not program:
        fail_usage(f'no ninja to read {build_dir} with (neither CMAKE_MAKE_PROGRAM nor ninja on PATH)')
    run = subprocess.run([program, '-C', build_dir, '-t', tool], capture_output=True, text=True, errors='replace')
    if run.returncode:
        fail_usage(f'ninja -C {build_dir} -t {tool} failed: {run.stderr.strip()}')
    return run.stdout


def cache_values(build_dir, wanted=None):
    """(name, value) of the CMakeCache.txt entries, or only the values of entry `wanted`."""
    cache = os.path.join(build_dir, 'CMakeCache.txt')
    if not os.path.isfile(cache):
        return []
    with open(cache, encoding='utf-8', errors='replace') as f:
        entries = [line.rstrip('\n').split('=', 1) for line in f if '=' in line and not line.startswith(('#', '//'))]
    entries = [(key.split(':')[0], value) for key, value in entries]
    return entries if wanted is None else [value for name, value in entries if name == wanted]


def cache_paths(build_dir):
    """Absolute file paths among CMakeCache.txt values; *Config.cmake files inside *_DIR directories."""
    for name, value in cache_values(build_dir):
        if name in OPTIONAL_CACHE_ENTRIES:
            continue
        for item in value.split(';'):
            if not item.startswith('/'):
                continue
            yield item
            if name.endswith('_DIR') and os.path.isdir(item):
                yield from glob.glob(os.path.join(item, '*Config.cmake'))
                yield from glob.glob(os.path.join(item, '*-config.cmake'))


def rerun_cmake_inputs(build_dir):
    """Implicit inputs of the edge that re-runs CMake: every file the last configure read."""
    with open(os.path.join(build_dir, 'build.ninja'), encoding='utf-8', errors='replace') as f:
        text = re.sub(r'\$\n *', ' ', f.read())  # join continued lines
    for line in text.splitlines():
        if line.startswith('build build.ninja') and ': RERUN_CMAKE' in line:
            implicit = line.split(' | ', 1)[1].split(' || ')[0] if ' | ' in line else ''
            for token in implicit.replace('$ ', '\0').split():  # '$ ' is a space inside a path
                if token.startswith('/'):
                    yield token.replace('\0', ' ').replace('$:', ':').replace('$$', '$')


def command_paths(build_dir):
    """Absolute paths in the build commands, also inside -I/x, --ld-path=/x, -Wl,-rpath,/x."""
    for command in ninja(build_dir, 'commands').splitlines():
        try:
            tokens = shlex.split(command)
        except ValueError:  # unbalanced quotes: fall back to whitespace
            tokens = command.split()
        for token in tokens:
            for piece in re.split(r'[,=]', token):
                piece = piece.strip('"\'')
                m = re.match(r'-{1,2}[A-Za-z-]*(/.*)', piece)  # -I/x, -isystem/x, -L/x
                if m:
                    piece = m.group(1)
                if piece.startswith('/'):
                    yield piece


def deps_paths(build_dir):
    """Headers the compilers read, from ninja's deps log (indented lines)."""
    for line in ninja(build_dir, 'deps').splitlines():
        if line.startswith((' ', '\t')) and line.strip():
            yield os.path.join(build_dir, line.strip())  # relative paths are relative to the build dir


def used_files(build_dirs, skip_dirs):
    paths = set()
    for build_dir in build_dirs:
        sources = [cache_paths]  # yields nothing without a CMakeCache.txt
        if os.path.isfile(os.path.join(build_dir, 'build.ninja')):
            sources += [rerun_cmake_inputs, command_paths, deps_paths]
        for source in sources:
            paths.update(os.path.normpath(p) for p in source(build_dir))
    skip = skip_dirs + list(IGNORED_ROOTS)
    return sorted(p for p in paths if not any(p == d or p.startswith(d + '/') for d in skip)
                  and not any(fnmatch.fnmatch(p, pattern) for pattern in OPTIONAL_FILES) and os.path.isfile(p))


# --- programs ------------------------------------------------------------------------------------------------------
# Each is found as (path, why): why says who runs it, for the message.

SHELL_WORDS = {  # builtins and keywords: never programs on PATH
    '!', '.', ':', '[', '[[', ']]', '{', '}', 'alias', 'bg', 'break', 'builtin', 'case', 'cd', 'command', 'continue',
    'declare', 'do', 'done', 'echo', 'elif', 'else', 'esac', 'eval', 'exec', 'exit', 'export', 'false', 'fg', 'fi',
    'for', 'function', 'getopts', 'hash', 'if', 'in', 'jobs', 'kill', 'let', 'local', 'mapfile', 'popd', 'printf',
    'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return', 'select', 'set', 'shift', 'shopt', 'source', 'test',
    'then', 'time', 'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'until', 'wait',
    'while'}
PREFIX_WORDS = {'!', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', 'exec', 'nohup', 'command', '{'}
SCRIPT_SUFFIXES = ('.sh', '.py', '.cmake')
DRIVER_NAME = re.compile(r'^(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(?:-\d+)?$')
LAUNCHERS = {'ccache', 'distcc', 'sccache'}
WRAPPERS = {'env', 'timeout', 'nice', 'nohup', 'stdbuf', 'setsid', 'xargs', 'time'}  # run the program after them
# The options of a link command that decide which programs its driver runs (and which linker it finds).
DRIVER_FLAG = re.compile(r'^(?:-fuse-ld=.*|--ld-path=.*|-B.+|--target=.*|--sysroot=.*|-m.*|-nostdlib|-nostartfiles|'
                         r'-static|-specs=.*|--gcc-toolchain=.*)$')


def is_program(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def resolve(name):
    """An absolute program path for a name as the shell would run it, or None."""
    if name.startswith('/'):
        return name if is_program(name) else None
    if '/' in name or not re.match(r'^[A-Za-z0-9_][\w.+-]*$', name):
        return None
    return shutil.which(name)


def interpreter(path):
    """The program a script's #! line runs (through /usr/bin/env too), or None."""
    try:
        with open(path, 'rb') as f:
            first = f.readline(256).decode('utf-8', 'replace')
    except OSError:
        return None
    if not first.startswith('#!'):
        return None
    words = first[2:].split()
    if not words:
        return None
    if os.path.basename(words[0]) == 'env':
        names = [w for w in words[1:] if not w.startswith('-') and '=' not in w]
        return resolve(names[0]) if names else None
    return resolve(words[0])


def unquote_shell(text):
    """Shell text with quoted strings blanked, keeping the $(...) inside double quotes: commands stay in place."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '\\':
            out.append('  ')
            i += 2
        elif c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            out.append(' STR ')
            i = j + 1
        elif c == '"':
            j, depth, keep = i + 1, 0, []
            while j < n and (text[j] != '"' or depth):
                if text.startswith('$(', j):
                    depth += 1
                    keep.append(' $(')
                    j += 2
                    continue
                if depth:
                    keep.append(text[j])
                    if text[j] == ')':
                        depth -= 1
                elif text[j] == '\\':
                    j += 1
                j += 1
            out.append(' STR ' + ''.join(keep) + ' ')
            i = j + 1
        elif c == '#' and (i == 0 or text[i - 1] in ' \t\n;'):
            j = text.find('\n', i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def shell_programs(text):
    """Names a shell script runs: the word in command position of each simple command, and what `command -v`,
    `which` and `type -P` look up. Here-documents are text, not commands; functions the script defines are not
    programs."""
    lines, body, end = [], [], None
    for line in text.splitlines():
        if end is not None:
            if line.strip() == end:
                end = None
            continue
        m = re.search(r'<<-?\s*[\'"]?(\w+)[\'"]?', line)
        if m and not re.search(r'<<<', line):
            end = m.group(1)
        body.append(line)
    text = unquote_shell('\n'.join(body))
    text = re.sub(r'\$?\(\((?:[^()]|\([^()]*\))*\)\)', ' STR ', text)  # arithmetic: $((w + 1)), (( i++ ))
    functions = set(re.findall(r'(?:^|\n)\s*(?:function\s+)?([\w.-]+)\s*\(\s*\)', text))
    names = set(re.findall(r'\b(?:command\s+-v|which|type\s+-P)\s+([\w.+-]+)', text))
    defaults = set(re.findall(r'\$\{\w+:?-([A-Za-z][\w.+-]*)\}', text))  # qemu=${QEMU:-qemu-system-riscv64}
    for segment in re.split(r'\$\(|`|&&|\|\||[;|&()\n{}]', text):
        words = segment.split()
        while words and (words[0] in PREFIX_WORDS or re.match(r'^\w+=', words[0])):
            words.pop(0)
        while words and words[0] not in SHELL_WORDS and words[0] not in functions:
            lines.append(words[0])
            if os.path.basename(words[0]) not in WRAPPERS:
                break
            # timeout -k 5 "$t" qemu-system-riscv64 ...: the wrapped program too (options, durations and
            # variables skipped)
            words = words[1:]
            while words and re.match(r'^(?:-.*|STR|\$.*|[\d.]+[smhd]?|\w+=.*)$', words[0]):
                words.pop(0)
    return (names | defaults | set(lines)) - functions


def python_programs(text):
    """Names a Python script runs: the literal first element of a subprocess argument list, shutil.which('x')."""
    calls = r'(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.exec\w+)\(\s*\[\s*[\'"]([\w.+/-]+)[\'"]'
    return set(re.findall(calls, text)) | set(re.findall(r'shutil\.which\(\s*[\'"]([\w.+-]+)[\'"]', text))


def cmake_programs(text):
    """Names a CMake script runs by name: execute_process(COMMAND x ...), find_program(... NAMES x)."""
    return set(re.findall(r'\bCOMMAND\s+([A-Za-z][\w.+-]*)', text))


def script_programs(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read(1 << 20)
    except OSError:
        return set()
    first = text.split('\n', 1)[0]
    if path.endswith('.py') or 'python' in first:
        return python_programs(text)
    if path.endswith('.cmake'):
        return cmake_programs(text)
    return shell_programs(text)


def is_script(path):
    return os.path.isfile(path) and (path.endswith(SCRIPT_SUFFIXES) or interpreter(path) is not None)


class Programs:
    """Programs the build and the tests run: path -> the first reason found."""

    def __init__(self, source_dir):
        self.found = {}
        self.missing = []  # (what, message): a driver that found no program for a name
        self.source_dir = source_dir
        self.scanned = set()
        self._scripts = None

    def add(self, path, why):
        if path and path not in self.found:
            self.found[path] = why
            program = interpreter(path)
            if program:
                self.add(program, f'the interpreter of {path}')

    def add_name(self, name, why):
        self.add(resolve(name), why)

    def source_scripts(self):
        """Scripts of the source tree by file name (scripts find each other through $(dirname "$0") etc.)."""
        if self._scripts is None:
            self._scripts = collections.defaultdict(list)
            for top, dirs, files in os.walk(self.source_dir):
                dirs[:] = [d for d in dirs if not d.startswith(('.', 'build'))]  # .ci/run: ci_programs
                for f in files:
                    path = os.path.join(top, f)
                    if is_script(path):
                        self._scripts[f].append(path)
        return self._scripts

    def scan(self, path, why):
        """A script of ours: its interpreter, the programs it runs by name, and the scripts of ours it names."""
        path = os.path.realpath(path)
        if path in self.scanned or not is_script(path):
            return
        self.scanned.add(path)
        self.add(interpreter(path), f'the interpreter of {path}')
        shown = os.path.relpath(path, self.source_dir)
        for name in sorted(script_programs(path)):
            self.add_name(name, f'{shown} ({why})')
        with open(path, encoding='utf-8', errors='replace') as f:  # comments name scripts without running them
            code = [line for line in f.read(1 << 20).splitlines() if not line.lstrip().startswith(('#', '//'))]
        words = set(re.findall(r'[\w.+-]+', '\n'.join(code)))
        for name in sorted(words & set(self.source_scripts())):
            for other in self.source_scripts()[name]:
                self.scan(other, f'named by {shown}')

    def ours(self, path):
        return os.path.realpath(path).startswith(os.path.realpath(self.source_dir) + '/')


def command_words(command):
    """The words of each simple command of a build command (cd x && /usr/bin/cmake -E ...: two)."""
    try:
        tokens = shlex.split(command, posix=True)
    except ValueError:
        tokens = command.split()
    segment = []
    for token in tokens + ['&&']:
        if token in ('&&', '||', ';', '|'):
            if segment:
                yield segment
            segment = []
        else:
            segment.append(token)


def probe_driver(driver, flags, scratch):
    """The programs a compiler driver runs to compile (-c in flags) or to compile and link a C file with these flags
    (its -v output), and the message when it cannot find one. -Wl,--version: the linker prints its version and
    stops, so nothing links."""
    source = os.path.join(scratch, 'probe.c')
    with open(source, 'w') as f:
        f.write('int main(void) { return 0; }\n')
    link = [] if '-c' in flags else ['-Wl,--version']
    run = subprocess.run([driver, '-v', *flags, source, '-o', os.path.join(scratch, 'probe'), *link],
                         capture_output=True, text=True, errors='replace', cwd=scratch,
                         env=dict(os.environ, LC_ALL='C'))  # ASCII quotes in "cannot find 'ld'"
    text = run.stderr + run.stdout
    programs, after_collect2 = [], False
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        first = words[0].strip('"')
        if after_collect2 or line.startswith(' ') or first.startswith('/'):
            path = resolve(first)
            if path and not os.path.isdir(first):
                programs.append(path)
        after_collect2 = line.startswith('collect2 version')
    missing = re.search(r"cannot find '([^']+)'|unable to find (?:program|linker)[^\n]*|invalid linker name[^\n]*",
                        text)
    if run.returncode and missing:
        fuse = [f[len('-fuse-ld='):] for f in flags if f.startswith('-fuse-ld=')]
        hint = f' (-fuse-ld={fuse[-1]}: the driver looks for ld.{fuse[-1]} by name)' if fuse else ''
        return programs, missing.group(0) + hint
    return programs, None


def build_programs(build_dir, programs, scratch):
    """Programs of the build's commands: each simple command's program, the programs each compiler driver runs
    with its link flags (probed once per driver and flag set), and what CMake's cache names."""
    probes = {}
    for command in ninja(build_dir, 'commands').splitlines():
        for words in command_words(command):
            while words and re.match(r'^\w+=', words[0]):
                words = words[1:]
            if not words or words[0] in SHELL_WORDS:
                continue
            if os.path.basename(words[0]) in LAUNCHERS and len(words) > 1:
                programs.add_name(words[0], f'the build ({build_dir})')
                words = words[1:]
            head = resolve(words[0])
            programs.add(head, f'the build ({build_dir})')
            if head and DRIVER_NAME.match(os.path.basename(words[0])):
                # a compile (-c) runs the compiler proper and the assembler, a link the linker too
                flags = tuple(w for w in words[1:] if DRIVER_FLAG.match(w) or w == '-c')
                probes.setdefault((head, flags), ' '.join([os.path.basename(words[0])] + list(flags)))
            elif head and programs.ours(head):
                programs.scan(head, f'a command of the build ({build_dir})')
    for (driver, flags), shown in sorted(probes.items()):
        found, missing = probe_driver(driver, list(flags), scratch)
        for path in found:
            programs.add(path, f'the driver `{shown}`')
        if missing:
            programs.missing.append((f'`{shown}` ({build_dir})', missing))


def test_programs(build_dir, programs):
    """Programs of ctest's test commands, and what the scripts of ours that they run, run."""
    if not os.path.isfile(os.path.join(build_dir, 'CTestTestfile.cmake')):
        return
    ctest = resolve('ctest')
    if not ctest:
        fail_usage('no ctest on PATH to list the tests of ' + build_dir)
    run = subprocess.run([ctest, '--show-only=json-v1', '--test-dir', build_dir], capture_output=True, text=True,
                         errors='replace')
    if run.returncode:
        fail_usage(f'ctest --show-only=json-v1 --test-dir {build_dir} failed: {run.stderr.strip()}')
    for test in json.loads(run.stdout).get('tests', []):
        command = test.get('command') or []
        why = f'test {test.get("name")}'
        for i, word in enumerate(command):
            path = resolve(word) if i == 0 else (word if word.startswith('/') and os.path.isfile(word) else None)
            if i == 0:
                programs.add(path, why)
            if path and programs.ours(path):
                programs.scan(path, why)


def ci_programs(source_dir, programs):
    """What CI runs: .ci/run and the scripts it names (install-deps.sh, test.sh, sanitize.sh, fuzz.sh, ...)."""
    ci = os.path.join(source_dir, '.ci', 'run')
    if os.path.isfile(ci):
        programs.scan(ci, 'CI')


def docs_programs(source_dir, programs):
    """What the docs check (tests/docs/check_docs.py, ctest label docs) runs: the commands of the blocks README.md and
    docs/*.md mark <!-- run -->, read as shell text by the docs check's own parser."""
    checker = os.path.join(source_dir, 'tests', 'docs', 'check_docs.py')
    if not os.path.isfile(checker):
        return
    spec = importlib.util.spec_from_file_location('check_docs', checker)
    docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(docs)
    for path in docs.doc_files(source_dir):
        blocks, _, _ = docs.parse(path)
        commands = [cmd for (_, _, marker, _, cmds) in blocks if marker == 'run' for (_, cmd) in cmds]
        shown = os.path.relpath(path, source_dir)
        for name in sorted(shell_programs('\n'.join(commands))):
            programs.add_name(name, f'{shown} (the docs check)')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--install-script', required=True)
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--without', action='append', default=[], metavar='PKG',
                    help='pretend the script does not list PKG (for the self-test)')
    ap.add_argument('--list-programs', action='store_true', help='print each program found and who runs it')
    ap.add_argument('build_dirs', nargs='+', metavar='BUILD_DIR')
    args = ap.parse_args()  # exits 2 on usage errors

    for d in args.build_dirs + [args.source_dir]:
        if not os.path.isdir(d):
            fail_usage(f'{d}: no such directory')
    for d in args.build_dirs:
        if not any(os.path.isfile(os.path.join(d, f)) for f in ('CMakeCache.txt', 'build.ninja')):
            fail_usage(f'{d}: not a CMake build tree (no CMakeCache.txt or build.ninja)')
    build_dirs = [os.path.abspath(d) for d in args.build_dirs]
    script = args.install_script
    run = subprocess.run([os.path.abspath(script), '--list'], capture_output=True, text=True)
    if run.returncode:
        fail_usage(f'{script} --list failed: {run.stderr.strip()}')
    listed = run.stdout.split()
    unknown = sorted(set(args.without) - set(listed))
    if unknown:
        fail_usage(f'--without {" ".join(unknown)}: not listed by {script}')
    roots = sorted(set(listed) - set(args.without))

    relations, essential, providers = read_package_db()
    missing = [p for p in roots if p not in relations]
    if missing:
        fail_usage(f'listed but not installed: {" ".join(missing)} (run {script} first)')
    graph = edges(relations, providers)
    allowed = set(bfs(sorted(set(roots) | essential), graph, HARD))

    owners = owner_index()
    src = os.path.abspath(args.source_dir)
    ours = [src] + build_dirs
    ours += [os.path.realpath(d) for d in ours]
    files = used_files(build_dirs, ours)  # ours or generated, not packaged
    programs = Programs(src)
    with tempfile.TemporaryDirectory(prefix='deps_closure.') as scratch:
        for d in build_dirs:
            if os.path.isfile(os.path.join(d, 'build.ninja')):
                build_programs(d, programs, scratch)
            test_programs(d, programs)
    ci_programs(src, programs)
    docs_programs(src, programs)
    ran = {p: why for p, why in programs.found.items()
           if not any(os.path.realpath(p).startswith(d + '/') for d in ours)}

    if args.list_programs:
        for path, why in sorted(ran.items()):
            print(f'deps_closure: program {path}: {why}')
    bad = collections.defaultdict(list)  # package ('' = none) -> (path, who runs it or None)
    used_packages = set()
    for path, why in [(f, None) for f in files] + sorted(ran.items()):
        real = os.path.realpath(path)
        # the symlink the build named (e.g. libOpenCL.so from the -dev package) and the file it resolves to
        found = {tuple(o) for o in (lookup(owners, path), lookup(owners, real)) if o}
        if not found:
            bad[''].append((path, why))
        for pkgs in found:
            used_packages.update(pkgs)
            if not allowed.intersection(pkgs):
                bad[min(pkgs)].append((path, why))

    shown = os.path.relpath(script, src) if os.path.abspath(script).startswith(src + '/') else script
    for what, message in programs.missing:
        print(f'deps_closure: {what} finds no program it needs: {message} (install the package that provides it '
              f'and list it in {shown}, or give the driver the program by its path)')
    if not bad and not programs.missing:
        print(f'deps_closure: {len(files)} files and {len(ran)} programs from {len(used_packages)} packages, all in '
              f'the Depends closure of the {len(roots)} packages {shown} lists (+ {len(essential)} essential)')
        return 0
    parent = bfs(roots, graph, FIELDS)
    for pkg in sorted(bad):
        entries = sorted(set(bad[pkg]), key=lambda e: (e[0], e[1] or ''))
        items = [path if why is None else f'{path} (run by {why})' for path, why in entries]
        listing = ', '.join(items[:3]) + (f' and {len(items) - 3} more' if len(items) > 3 else '')
        if not pkg:
            print(f'deps_closure: the build used {listing}, not from any Debian package')
            continue
        if pkg in parent:  # the chain of relations to it; one at least is a Recommends or Suggests
            chain, node = [pkg], pkg
            while parent[node]:
                node, field = parent[node]
                chain[:0] = [node, f'-{field}->']
            why = 'it would come through ' + ' '.join(chain)
        else:
            why = f'no listed package leads to it: add it to {shown}'
        print(f'deps_closure: the build used {listing} from {pkg}, outside the Depends closure: {why}')
    return 1


if __name__ == '__main__':
    sys.exit(main())
