"""What the Python door costs: `macsim.run` against the engine's own time on its
thread (measured in Rust, `engine_s`), for a run of about 1 s and one of about 1 ms,
and the reference sweep through `macsim.sweep` against `mac-sim sweep` (release binary)
with the same threads.

    python mac-sim/macsim-py/bench/bench.py [PATH/TO/mac-sim] [--threads N]

Prints one line per measurement; the medians of several repetitions.
"""

import argparse
import statistics
import subprocess
import tempfile
import time

import macsim
from macsim import _native


def call_overhead(label: str, scenario: "macsim.Scenario", reps: int) -> None:
    """Per call: the native call's wall time less the engine's own (measured on its
    thread, in Rust), and what the package adds on top (the JSON read into a dict, the
    result object; DataFrames are built only when asked for)."""
    added, engines, wrapper = [], [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = _native.run(scenario, False)
        t1 = time.perf_counter()
        macsim.RunResult(out)
        t2 = time.perf_counter()
        added.append(t1 - t0 - out["engine_s"])
        engines.append(out["engine_s"])
        wrapper.append(t2 - t1)
    e, a, w = (statistics.median(x) for x in (engines, added, wrapper))
    print(
        f"{label}: engine {e * 1e3:.3f} ms; the native call adds {a * 1e3:.3f} ms "
        f"({100 * a / e:.2f} %), the package's result {w * 1e3:.3f} ms more "
        f"(in all {100 * (a + w) / e:.2f} %); medians of {reps}"
    )


def sweep_against_cli(cli: str, threads: int, reps: int) -> None:
    """The reference sweep of BENCHMARKS.md: 27 points x 5 replications x 10 s."""
    axes = dict(stations=[2**k for k in range(9)], frames=[64, 512, 1518])
    flags = ["-n", "1..=256:x2", "-f", "64,512,1518", "-r", "5"]
    py, rs = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        macsim.sweep(threads=threads, progress=False, replications=5, **axes)
        py.append(time.perf_counter() - t0)
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            subprocess.run([cli, "sweep", *flags, "-j", str(threads), "-o", out, "--no-plots", "-q"],
                           check=True, capture_output=True)
            rs.append(time.perf_counter() - t0)
    p, r = statistics.median(py), statistics.median(rs)
    print(
        f"reference sweep (27 points x 5 replications x 10 s), {threads} threads: "
        f"macsim.sweep {p:.2f} s, mac-sim sweep {r:.2f} s (process included), "
        f"ratio {p / r:.3f}; runs {', '.join(f'{x:.2f}' for x in py)} / {', '.join(f'{x:.2f}' for x in rs)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default="target/release/mac-sim")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    call_overhead("about 1 s (256 saturated stations, 64-byte frames, 50 s)",
                  macsim.Scenario(stations=256, frames=64, duration="50s"), a.reps)
    call_overhead("about 1 ms (32 saturated stations, 1518-byte frames, 700 ms)",
                  macsim.Scenario(stations=32, duration="700ms"), 200)
    sweep_against_cli(a.cli, a.threads, a.reps)


if __name__ == "__main__":
    main()
