#!/usr/bin/env python3
"""Check that no crate has a cycle between its modules.

For every crate given (a folder holding `src/lib.rs` or `src/main.rs`), each source
file is one module, named by its path (`src/exact/medium.rs` is `exact::medium`,
`src/exact/mod.rs` is `exact`). A module depends on another when it names it: a `use`
declaration or a path in code starting with `crate::`, `super::` or `self::`, resolved
to the longest module prefix that exists. Paths through the crate root's re-exports
(`crate::RunResult`) are resolved to the module that defines the item. Test modules
inside a file (`#[cfg(test)] mod tests`) belong to their file.

A cycle is reported at every depth: between files, and between the folders that hold
them (the `exact` folder as one module, `sweep` as another, ...), so that no two
subjects depend on each other even through different files.

A crate whose only roots are `src/bin/*.rs` files (the size probes) has no modules to
check when each binary is one file; one with `src/bin/NAME/` folders is checked per
binary.

Usage: scripts/module-cycles.py [--workspace Cargo.toml]... [CRATE_DIR]...
  --workspace: every member crate of that workspace (as `cargo metadata` lists them).
Exit status 1 if a cycle is found.
"""

import json
import os
import re
import subprocess
import sys


def modules(src):
    """{module path tuple: file} for every .rs file below src."""
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            out[tuple(parts)] = os.path.join(dirpath, f)
    return out


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.splitlines())


def use_paths(text):
    """Every path a file names: flattened `use` trees and inline `crate::`/`super::` paths."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        paths.extend(flatten(re.sub(r"\s+", "", m.group(1))))
    for m in re.finditer(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)", text):
        paths.append(m.group(1).split("::"))
    return paths


def flatten(tree, prefix=()):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e] (as lists)."""
    if "{" not in tree:
        name = tree.split(" as ")[0]
        return [list(prefix) + [p for p in name.split("::") if p]]
    head, rest = tree.split("{", 1)
    inner = rest[: rest.rfind("}")]
    head_parts = [p for p in head.split("::") if p]
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    out = []
    for it in items:
        if it.strip():
            out.extend(flatten(it.strip(), tuple(list(prefix) + head_parts)))
    return out


def resolve(path, here, mods, root_exports):
    """The module a path names, from module `here`, or None (outside the crate)."""
    if not path:
        return None
    if path[0] == "crate":
        rest = path[1:]
        if rest and (rest[0],) not in mods and rest[0] in root_exports:
            return root_exports[rest[0]]
        base = ()
    elif path[0] == "super":
        base = here[:-1]
        rest = path[1:]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif path[0] == "self":
        base, rest = here, path[1:]
    else:
        return None
    best = base
    for i in range(1, len(rest) + 1):
        cand = base + tuple(rest[:i])
        if cand in mods:
            best = cand
    return best


def root_reexports(mods):
    """{item name: defining module} for the crate root's `pub use` declarations."""
    text = strip_comments(open(mods[()]).read())
    out = {}
    for m in re.finditer(r"\bpub\s+use\s+([^;]+);", text):
        for p in flatten(re.sub(r"\s+", "", m.group(1))):
            target = resolve(["crate"] + p, (), mods, {})
            if target is not None:
                out[p[-1]] = target
    return out


def find_cycle(edges):
    """One cycle in a directed graph {node: set(nodes)}, or None."""
    colour, stack = {}, []

    def visit(n):
        colour[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if colour.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if colour.get(m) is None:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        colour[n] = 2
        return None

    for n in sorted(edges):
        if colour.get(n) is None:
            c = visit(n)
            if c:
                return c
    return None


def check(crate_dir):
    src = os.path.join(crate_dir, "src")
    if not os.path.exists(os.path.join(src, "lib.rs")) and not os.path.exists(
        os.path.join(src, "main.rs")
    ):
        bins = os.path.join(src, "bin")
        if not os.path.isdir(bins):
            raise SystemExit(f"{crate_dir}: no src/lib.rs, src/main.rs or src/bin/")
        folders = sorted(d for d in os.listdir(bins) if os.path.isdir(os.path.join(bins, d)))
        files = sorted(f for f in os.listdir(bins) if f.endswith(".rs"))
        ok = all([check_root(os.path.join(bins, d), f"{crate_dir}/src/bin/{d}") for d in folders])
        name = os.path.basename(os.path.normpath(crate_dir))
        print(f"{name}: {len(files)} one-file binaries, {len(folders)} binary folders checked")
        return ok
    return check_root(src, crate_dir)


def check_root(src, crate_dir):
    mods = modules(src)
    exports = root_reexports(mods)
    edges = {}
    for here, path in mods.items():
        text = strip_comments(open(path).read())
        for p in use_paths(text):
            target = resolve(p, here, mods, exports)
            if target is not None and target != here and target != ():
                edges.setdefault(here, set()).add(target)
    deepest = max(len(m) for m in mods)
    found = []
    for depth in range(deepest, 0, -1):
        collapsed = {}
        for a, bs in edges.items():
            for b in bs:
                ca, cb = a[:depth], b[:depth]
                if ca != cb and ca and cb:
                    collapsed.setdefault(ca, set()).add(cb)
        c = find_cycle(collapsed)
        if c:
            text = " -> ".join("::".join(m) for m in c)
            if text not in found:
                found.append(text)
    n_edges = sum(len(v) for v in edges.values())
    name = os.path.basename(os.path.normpath(crate_dir))
    if found:
        for f in found:
            print(f"{name}: module cycle: {f}")
        return False
    print(f"{name}: {len(mods)} modules, {n_edges} dependencies, no cycle")
    return True


def workspace_members(manifest):
    """The folders of every member crate of the workspace whose Cargo.toml is given."""
    out = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--manifest-path", manifest],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sorted(os.path.dirname(p["manifest_path"]) for p in json.loads(out)["packages"])


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    dirs = []
    while args:
        a = args.pop(0)
        if a == "--workspace":
            if not args:
                raise SystemExit("--workspace needs a Cargo.toml")
            dirs.extend(workspace_members(args.pop(0)))
        else:
            dirs.append(a)
    ok = all([check(d) for d in dirs])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
