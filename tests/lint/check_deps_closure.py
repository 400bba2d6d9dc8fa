#!/usr/bin/env python3
"""Fail when a build used a file from a Debian package that scripts/install-deps.sh does not guarantee.

install-deps.sh installs with --no-install-recommends, so a fresh machine gets only the listed packages, their
Depends/Pre-Depends (transitively) and the Essential ones. A build that happens to pick up a file from anything
else (a Recommends that the CI machine had, like libdnnl-dev's ocl-icd-opencl-dev, or a file in /usr/local)
works here and breaks there. This collects the files the given CMake/Ninja build trees used (CMakeCache.txt
entries, the CMake files read at configure time, the tools and libraries on the command lines, the headers in
ninja's deps log), maps them to their packages through dpkg's file lists, and checks each is in that closure.

  check_deps_closure.py --install-script SCRIPT --source-dir SRC [--without PKG]... BUILD_DIR [BUILD_DIR...]
"""
import argparse
import collections
import fnmatch
import glob
import heapq
import os
import re
import shlex
import shutil
import subprocess
import sys

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--install-script', required=True)
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--without', action='append', default=[], metavar='PKG',
                    help='pretend the script does not list PKG (for the self-test)')
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
    files = used_files(build_dirs, ours + [os.path.realpath(d) for d in ours])  # ours or generated, not packaged
    bad = collections.defaultdict(list)  # package ('' = none) -> files
    used_packages = set()
    for path in files:
        real = os.path.realpath(path)
        # the symlink the build named (e.g. libOpenCL.so from the -dev package) and the file it resolves to
        found = {tuple(o) for o in (lookup(owners, path), lookup(owners, real)) if o}
        if not found:
            bad[''].append(path)
        for pkgs in found:
            used_packages.update(pkgs)
            if not allowed.intersection(pkgs):
                bad[min(pkgs)].append(path)

    shown = os.path.relpath(script, src) if os.path.abspath(script).startswith(src + '/') else script
    if not bad:
        print(f'deps_closure: {len(files)} files from {len(used_packages)} packages, all in the Depends closure '
              f'of the {len(roots)} packages {shown} lists (+ {len(essential)} essential)')
        return 0
    parent = bfs(roots, graph, FIELDS)
    for pkg in sorted(bad):
        paths = sorted(set(bad[pkg]))
        listing = ', '.join(paths[:3]) + (f' and {len(paths) - 3} more' if len(paths) > 3 else '')
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
