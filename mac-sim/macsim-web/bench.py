#!/usr/bin/env python3
"""The page's speed and size, measured in headless Chromium against the native
binary in the same run, for BENCHMARKS.md.

    mac-sim/macsim-web/build.sh && cargo build --release -p mac-sim
    target/web-venv/bin/python mac-sim/macsim-web/bench.py [--write]

Measures, for the default scenario (32 saturated stations, 10 simulated seconds,
seed 1): the engine in the page (Run to end, after Reset), the page playing at full
speed (drawing included) and `mac-sim run` (release build, whole process), as events
per second; the animation with 64 stations on screen playing in real time (frames
per second and the work of a frame); and the size of the .wasm, raw and gzipped.
--write replaces the section between the web-bench markers in BENCHMARKS.md."""

import argparse
import gzip
import json
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "browser-tests"))
from harness import ROOT, WEB, chromium, serve  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

START, END = "<!-- web-bench:start -->", "<!-- web-bench:end -->"


def chromium_version():
    try:
        out = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.split()
        return next((w for w in out if w[:1].isdigit()), "")
    except OSError:
        return ""


def open_page(d, url):
    d.get(url)
    WebDriverWait(d, 30).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def wait_done(d):
    WebDriverWait(d, 120, poll_frequency=0.02).until(
        lambda d: d.execute_script("return document.getElementById('status').dataset.done") == "1"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="repetitions of each timing (median)")
    ap.add_argument("--cli", default=str(ROOT / "target" / "release" / "mac-sim"), help="the native binary")
    ap.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    a = ap.parse_args()

    native_ms, events = [], None
    for _ in range(a.runs):
        t = time.perf_counter()
        out = subprocess.run([a.cli, "run", "-q", "--json"], capture_output=True, text=True, check=True).stdout
        native_ms.append((time.perf_counter() - t) * 1e3)
        events = json.loads(out)["events"]

    base, _, httpd = serve()
    d = chromium()
    try:
        open_page(d, base)
        engine_ms = []
        for _ in range(a.runs):
            d.find_element("id", "reset").click()
            d.find_element("id", "run-end").click()
            wait_done(d)
            engine_ms.append(float(d.find_element("id", "perf").get_attribute("data-engine-ms")))
            assert int(d.find_element("id", "perf").get_attribute("data-events")) == events
        play_ms = []
        Select(d.find_element("id", "speed")).select_by_value("max")
        for _ in range(a.runs):
            d.find_element("id", "reset").click()
            d.find_element("id", "play").click()
            wait_done(d)
            play_ms.append(float(d.find_element("id", "perf").get_attribute("data-ms")))

        open_page(d, base + "?stations=64")
        Select(d.find_element("id", "speed")).select_by_value("1")
        d.find_element("id", "play").click()
        f0 = d.execute_script("return macsimPage.frames")
        t0 = time.perf_counter()
        time.sleep(5)
        f1 = d.execute_script("return macsimPage.frames")
        fps = (f1 - f0) / (time.perf_counter() - t0)
        work = sorted(d.execute_script("return macsimPage.work"))
    finally:
        d.quit()
        httpd.shutdown()

    wasm = (WEB / "www" / "pkg" / "macsim_web_bg.wasm").read_bytes()
    med = statistics.median
    eng, play, nat = med(engine_ms), med(play_ms), med(native_ms)
    p95 = work[int(0.95 * (len(work) - 1))]
    rows = [
        ("`mac-sim run` (release, whole process)", nat, events / nat / 1e3, 1.0),
        ("the page's engine (Run to end)", eng, events / eng / 1e3, eng / nat),
        ("the page playing at full speed (drawing included)", play, events / play / 1e3, play / nat),
    ]
    load = open("/proc/loadavg").read().split()[0] if pathlib.Path("/proc/loadavg").exists() else "unknown"
    text = [
        START,
        f"Default scenario (32 saturated stations, 10 simulated seconds, seed 1, {events} events),",
        f"median of {a.runs}, headless Chromium {chromium_version()} on this machine (load average {load} at the",
        f"end), {time.strftime('%Y-%m-%d')}, measured by `mac-sim/macsim-web/bench.py --write`:",
        "",
        "| | time (ms) | M events/s | time against native |",
        "|---|---:|---:|---:|",
        *[f"| {n} | {t:.1f} | {r:.2f} | {x:.2f} |" for n, t, r, x in rows],
        "",
        f"Animation, 64 stations on screen playing in real time: {fps:.0f} frames per second; the work of a",
        f"frame (engine and drawing) {med(work):.2f} ms median, {p95:.2f} ms at the 95th percentile, {work[-1]:.2f} ms",
        f"at most ({len(work)} frames; 60 frames per second leave 16.7 ms).",
        "",
        f"The engine's `.wasm`: {len(wasm)} bytes ({len(wasm) / 1024:.0f} KiB), {len(gzip.compress(wasm, 9))} bytes gzipped",
        f"({len(gzip.compress(wasm, 9)) / 1024:.0f} KiB); the page loads nothing from outside its folder.",
        END,
    ]
    out = "\n".join(text)
    print(out)
    if a.write:
        f = ROOT / "BENCHMARKS.md"
        s = f.read_text()
        if START in s:
            s = s[: s.index(START)] + out + s[s.index(END) + len(END):]
        else:
            s = s.rstrip() + "\n\n## The browser page (mac-sim/macsim-web)\n\n" + out + "\n"
        f.write_text(s)


if __name__ == "__main__":
    main()
