"""What the Python door costs: `macsim.run` against the engine's own time on its
thread (measured in Rust, `engine_s`), for a run of about 1 s and one of about 1 ms,
and `macsim.sweep` against `mac-sim sweep` (release binary) with the same threads.

    python mac-sim/python/bench/bench.py [PATH/TO/mac-sim] [--threads N]

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
    totals, engines = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = _native.run(scenario, False)
        totals.append(time.perf_counter() - t0)
        engines.append(out["engine_s"])
    # Through the whole package too (the result object, the JSON parsed into a dict).
    wrapped = []
    for _ in range(reps):
        t0 = time.perf_counter()
        macsim.run(scenario)
        wrapped.append(time.perf_counter() - t0)
    t, e, w = (statistics.median(x) for x in (totals, engines, wrapped))
    print(
        f"{label}: engine {e * 1e3:.3f} ms, native call {t * 1e3:.3f} ms "
        f"(+{(t - e) * 1e3:.3f} ms, {100 * (t - e) / e:.2f} %), macsim.run {w * 1e3:.3f} ms "
        f"(+{(w - e) * 1e3:.3f} ms, {100 * (w - e) / e:.2f} %), median of {reps}"
    )


def sweep_against_cli(cli: str, threads: int, reps: int) -> None:
    axes = dict(stations=[2, 4, 8, 16, 32, 64], load=[0.2, 0.5, 0.8, "saturated"],
                backoff=["beb", "linear"])
    flags = ["-n", "2,4,8,16,32,64", "-l", "0.2,0.5,0.8,saturated", "-b", "beb,linear"]
    common = dict(duration="1s", replications=3)
    py, rs = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        macsim.sweep(threads=threads, progress=False, **axes, **common)
        py.append(time.perf_counter() - t0)
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            subprocess.run([cli, "sweep", *flags, "-d", "1s", "-r", "3", "-j", str(threads),
                            "-o", out, "--no-plots", "-q"], check=True, capture_output=True)
            rs.append(time.perf_counter() - t0)
    p, r = statistics.median(py), statistics.median(rs)
    print(
        f"sweep 48 points x 3 replications x 1 s, {threads} threads: macsim.sweep {p:.2f} s, "
        f"mac-sim sweep {r:.2f} s (process included), ratio {p / r:.3f}, median of {reps}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default="target/release/mac-sim")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    call_overhead("1-s run (64 stations, mix, load 0.6, 1 s)",
                  macsim.Scenario(stations=64, frames="64:7,594:4,1518:1", load=0.6,
                                  duration="1s"), a.reps)
    call_overhead("1-ms run (8 stations, load 0.5, 20 ms)",
                  macsim.Scenario(stations=8, load=0.5, duration="20ms"), 50)
    sweep_against_cli(a.cli, a.threads, a.reps)


if __name__ == "__main__":
    main()
