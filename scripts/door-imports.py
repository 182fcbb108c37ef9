#!/usr/bin/env python3
"""The doors (the command line, the Python package, the browser page) reach the
simulation crates through each crate's face only: the names its root re-exports
(`pub use` in its lib.rs). A path that goes through a crate's modules
(`csma_cd::exact::memory::estimate`, or `use radio_sim::report;` and then
`report::csv::single`) is refused; `csma_cd::estimate_memory`,
`csma_cd::Scenario::from_config` and a module the root re-exports as a whole
(`use sim_host::temporaries;`) are the face's.

Usage: scripts/door-imports.py [REPO]   (exit 1 naming each path past a face)
"""
import pathlib
import re
import sys

CRATES = {"sim_kit": "mac-sim/sim-kit", "sim_host": "mac-sim/sim-host",
          "csma_cd": "mac-sim/csma-cd", "csma_cd_host": "mac-sim/csma-cd-host",
          "retry_storm": "mac-sim/retry-storm", "retry_storm_host": "mac-sim/retry-storm-host",
          "radio_sim": "mac-sim/radio-sim", "radio_sim_host": "mac-sim/radio-sim-host"}
DOORS = ("mac-sim/src", "mac-sim/macsim-py/src", "mac-sim/macsim-web/src")


def without_comments(text: str) -> str:
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def modules(repo: pathlib.Path, crate: str) -> set:
    """The crate's modules declared at its root: `pub mod X` (not its face)."""
    lib = (repo / CRATES[crate] / "src/lib.rs").read_text()
    return set(re.findall(r"^\s*pub mod ([a-z_0-9]+)", lib, re.M))


def split_top(body: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in body:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [x for x in out + [cur.strip()] if x]


def first_segments(body: str) -> list:
    """The first segment after the crate of each path a `use C::...` names."""
    body = body.strip()
    if body.startswith("{") and body.endswith("}"):
        return [seg for item in split_top(body[1:-1]) for seg in first_segments(item)]
    return [re.split(r"::|\s", body, 1)[0]]


def main() -> int:
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    tree = {c: modules(repo, c) for c in CRATES}
    names = "|".join(CRATES)
    use = re.compile(r"\buse\s+(" + names + r")::(.*?);", re.S)
    inline = re.compile(r"(?<![\w:])(" + names + r")::([a-z_][a-z_0-9]*)\b(?!\s*[,}])")
    bad = []
    for door in DOORS:
        for path in sorted((repo / door).rglob("*.rs")):
            text = without_comments(path.read_text())
            spans = []
            for m in use.finditer(text):
                spans.append(m.span())
                for seg in first_segments(m.group(2)):
                    if seg in tree[m.group(1)]:
                        line = text.count("\n", 0, m.start()) + 1
                        bad.append(f"{path.relative_to(repo)}:{line}: use {m.group(1)}::{seg}")
            for m in inline.finditer(text):
                if any(a <= m.start() < b for a, b in spans):
                    continue
                if m.group(2) in tree[m.group(1)]:
                    line = text.count("\n", 0, m.start()) + 1
                    bad.append(f"{path.relative_to(repo)}:{line}: {m.group(0)}::")
    for b in bad:
        print(f"{b} goes through the crate's modules; use a name its root re-exports")
    if bad:
        print(f"{len(bad)} paths of the doors go past a crate's face", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
