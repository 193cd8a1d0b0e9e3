#!/usr/bin/env python3
"""The architecture, checked (TAP): the folders of the tree are layers, each
may use only itself and the layers below it; no two modules (a .c and its .h)
need each other, neither through headers nor through the symbols of the built
objects; files and folders stay small. Run by make check after the build
(WARD_SRCDIR, WARD_BUILDDIR)."""
import collections
import glob
import os
import re
import subprocess
import sys

SRC = os.environ.get("WARD_SRCDIR", ".")
BUILD = os.environ.get("WARD_BUILDDIR", SRC)

# Lowest first. A folder may include headers of its own rank or lower ones
# only when it is listed lower (same rank: independent of each other).
LAYERS = [
    ["runtime/lib"],
    ["oci"],
    ["hooks", "runtime/seccomp", "runtime/cgroup", "runtime/net"],
    ["runtime/linux"],
    ["runtime/rootfs"],
    ["runtime/facts", "runtime/rootless", "runtime/idpool"],
    ["runtime/policy", "runtime/supervisor"],
    ["runtime/container"],
    ["runtime/cli"],
    ["runtime/main.c"],
]
RANK = {f: i for i, fs in enumerate(LAYERS) for f in fs}
MAX_LINES = 700

results = []


def check(ok, name, detail=""):
    results.append((ok, name, detail))


def folder_of(rel):
    if rel == "runtime/main.c":
        return rel
    parts = rel.split("/")
    return "/".join(parts[:2]) if parts[0] == "runtime" else parts[0]


def sources():
    pats = ["oci/*.[ch]", "hooks/*.[ch]", "runtime/*/*.[ch]", "runtime/*/*/*.[ch]"]
    out = ["runtime/main.c"]
    for p in pats:
        out += sorted(os.path.relpath(f, SRC) for f in glob.glob(os.path.join(SRC, p)))
    return out


def resolve(inc):
    for base in ("", "runtime"):
        rel = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(os.path.join(SRC, rel)):
            return rel
    return None


files = sources()
includes = {}
for f in files:
    text = open(os.path.join(SRC, f), encoding="utf-8").read()
    includes[f] = re.findall(r'^#include "([^"]+)"', text, re.M)

# 1. Every folder is a known layer.
unknown = sorted({folder_of(f) for f in files} - set(RANK))
check(not unknown, "every source folder is a declared layer", ", ".join(unknown))

# 2. Includes go by path, to the same layer's folder or a lower layer.
bad_path, upward = [], []
for f in files:
    for inc in includes[f]:
        target = resolve(inc)
        if target is None:
            if not re.match(r"^[a-z_]+/", inc):
                bad_path.append(f"{f}: {inc}")
            continue
        if "/" not in inc:
            bad_path.append(f"{f}: {inc}")
        ff, tf = folder_of(f), folder_of(target)
        if ff != tf and RANK.get(tf, 99) >= RANK.get(ff, -1):
            upward.append(f"{f} -> {target}")
check(not bad_path, "headers are included by path", "; ".join(bad_path))
check(not upward, "includes go only to the same folder or to a lower layer", "; ".join(upward))

# 3. hooks/ stands apart from the runtime (but for the shared basics,
# runtime/lib, the lowest layer).
hooks_rt = [f"{f}: {i}" for f in files if f.startswith("hooks/") for i in includes[f]
            if resolve(i) and resolve(i).startswith("runtime/")
            and not resolve(i).startswith("runtime/lib/")]
check(not hooks_rt, "hooks/ includes no runtime/ header but runtime/lib's", "; ".join(hooks_rt))


def cycles(graph):
    """Strongly connected components with more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


# 3b. The CLI is a shell: it parses options and calls container/, so it
# (and main.c) includes only cli/, container/, oci/ and lib/ headers.
SHELL_OK = ("runtime/cli", "runtime/container", "oci", "runtime/lib")
cli_below = [f"{f}: {i}" for f in files if folder_of(f) in ("runtime/cli", "runtime/main.c")
             for i in includes[f] if resolve(i) and folder_of(resolve(i)) not in SHELL_OK]
check(not cli_below, "cli/ and main.c include only cli/, container/, oci/ and lib/ headers",
      "; ".join(cli_below))

# 4. No include circle between modules (foo.c + foo.h).
mod = collections.defaultdict(set)
for f in files:
    for inc in includes[f]:
        t = resolve(inc)
        if t and t[:-2] != f[:-2]:
            mod[f[:-2]].add(t[:-2])
c = cycles(mod)
check(not c, "no include circle between modules", "; ".join(" <-> ".join(x) for x in c))

# 5. No circle in who-calls-whom between the objects of the libraries.
archives = [os.path.join(BUILD, a) for a in ("libward.a", "liboci.a")]
if all(os.path.exists(a) for a in archives):
    defs, undefs = {}, collections.defaultdict(set)
    for a in archives:
        out = subprocess.run(["nm", "-A", a], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            m = re.match(r"^[^:]+:([^:]+):\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$", line)
            if not m:
                continue
            obj, kind, sym = m.groups()
            if kind == "U":
                undefs[obj].add(sym)
            elif kind in "TDBR":
                defs[sym] = obj
    calls = collections.defaultdict(set)
    for obj, syms in undefs.items():
        for s in syms:
            if s in defs and defs[s] != obj:
                calls[obj].add(defs[s])
    c = cycles(calls)
    check(bool(defs) and not c, "no circle of calls between the objects of libward.a and liboci.a",
          "; ".join(" <-> ".join(x) for x in c))
    # 5b. The mount seam (linux/sys_mount.h): only sys_mount.o calls the
    # kernel's mount-family entry points, so a unit test that links its own
    # sys_* sees every mount ward asks for.
    raw = {"fsopen", "fsconfig", "fsmount", "fspick", "open_tree", "move_mount",
           "mount_setattr", "mount", "umount", "umount2", "pivot_root"}
    leaks = sorted(f"{o}: {s}" for o, syms in undefs.items() for s in syms & raw
                   if o != "sys_mount.o")
    seam = [f for f in files if f.endswith(".c") and f != "runtime/linux/sys_mount.c"
            and re.search(r"SYS_(pivot_root|mount|umount2|fsopen|fsmount|fsconfig|open_tree|"
                          r"move_mount|mount_setattr)\b|__NR_(pivot_root|mount|umount2|fsopen|"
                          r"fsmount|fsconfig|open_tree|move_mount|mount_setattr)\b",
                          open(os.path.join(SRC, f), encoding="utf-8").read())]
    check(bool(undefs.get("sys_mount.o")) and not leaks and not seam,
          "mount-family system calls only through linux/sys_mount.c", "; ".join(leaks + seam))
else:
    check(False, "no circle of calls between objects", "libward.a/liboci.a not built")

# 5c. No path cut short in silence (lib/strfmt.h): a snprintf whose result
# is dropped (a statement of its own) may not build a path, "%s" beside a
# "/" in its format; fmt_fit fails instead (and must be looked at).
cut = []
pathfmt = re.compile(r'^\s*snprintf\([^"]*"[^"]*(/%[-.*0-9]*s|%[-.*0-9]*s/[^%"])')
for f in files:
    if f.endswith(".c"):
        for n, line in enumerate(open(os.path.join(SRC, f), encoding="utf-8"), 1):
            if pathfmt.search(line):
                cut.append(f"{f}:{n}")
check(not cut, "no path built by a snprintf whose result is dropped", ", ".join(cut))

# 6. Small files. A layer grows by subfolders where a concern has several
# files (runtime/container/create/, ops/, query/), which keep their layer's
# rank; there is no cap on how many files a folder holds.
long_files = []
for f in files:
    if f.endswith(".c"):
        n = sum(1 for _ in open(os.path.join(SRC, f), encoding="utf-8"))
        if n > MAX_LINES:
            long_files.append(f"{f} ({n})")
check(not long_files, f"no .c file over {MAX_LINES} lines", ", ".join(long_files))

print(f"1..{len(results)}")
for i, (ok, name, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        print(f"# {detail}")
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
