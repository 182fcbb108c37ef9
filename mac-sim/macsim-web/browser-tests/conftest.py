"""The page in a real browser: www/ served on 127.0.0.1 from a thread, Debian's
Chromium driven by Selenium, and the command line it is compared with ($MACSIM_CLI,
else the workspace's debug build).

Every test fails if the browser logged an error. Screenshots and the measured
figures go to $MACSIM_WEB_ARTIFACTS (default target/web-artifacts)."""

import json
import os
import pathlib
import subprocess

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from harness import ROOT, chromium, serve

ARTIFACTS = pathlib.Path(os.environ.get("MACSIM_WEB_ARTIFACTS") or ROOT / "target" / "web-artifacts")


@pytest.fixture(scope="session")
def server():
    """The page's folder on an ephemeral port of 127.0.0.1; every path requested."""
    base, requested, httpd = serve()
    yield base, requested
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    d = chromium()
    yield d
    d.quit()


class Page:
    """The page at one URL, with helpers to drive it and read it."""

    def __init__(self, driver, base):
        self.d = driver
        self.base = base

    def open(self, query=""):
        self.d.get(self.base + query)
        WebDriverWait(self.d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        return self

    def el(self, id_):
        return self.d.find_element("id", id_)

    def click(self, id_):
        self.el(id_).click()

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def text(self, id_):
        return self.el(id_).text

    def run_to_end(self, timeout=60):
        """Click "Run to end" and wait for the run's end: it runs in slices, one per
        animation frame."""
        self.click("run-end")
        self.wait_done(timeout)

    def wait_done(self, timeout=30):
        WebDriverWait(self.d, timeout, poll_frequency=0.05).until(
            lambda d: d.execute_script("return document.getElementById('status').dataset.done") == "1"
        )

    def set_control(self, key, value):
        el = self.el(f"p-{key}")
        if el.tag_name == "select":
            self.js(
                "const el = arguments[0]; if (![...el.options].some(o => o.value === arguments[1]))"
                " { const o = document.createElement('option'); o.value = o.textContent = arguments[1]; el.append(o); }"
                " el.value = arguments[1];",
                el,
                value,
            )
        else:
            el.clear()
            el.send_keys(value)

    def events(self):
        """The rows of the events table, oldest first."""
        rows = self.js(
            "return [...document.querySelectorAll('#events tbody tr')].map(r => "
            "[Number(r.dataset.i), r.dataset.timePs, Number(r.dataset.station), r.dataset.kind,"
            " Number(r.dataset.collisions), r.dataset.backoffSlots])"
        )
        return sorted(rows)

    def results(self):
        ids = ["r-delivered", "r-collisions", "r-collided", "r-dropped", "r-utilisation"]
        out = {i: self.text(i) for i in ids}
        out["ec"] = self.js(
            "return [...document.querySelectorAll('#ec-table tbody tr')].map(r => [...r.cells].map(c => c.textContent))"
        )
        return out

    def screenshot(self, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.js("window.scrollTo(0, 0)")
        self.d.save_screenshot(str(ARTIFACTS / name))


@pytest.fixture
def page(browser, server):
    base, _ = server
    browser.get_log("browser")  # drop what earlier tests left
    p = Page(browser, base)
    yield p
    errors = [l for l in browser.get_log("browser") if l["level"] == "SEVERE"]
    assert not errors, f"the browser logged errors: {errors}"


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("MACSIM_CLI") or str(ROOT / "target" / "debug" / "mac-sim")
    if not os.path.isfile(path):
        pytest.fail(f"the mac-sim binary is missing at {path}: build it (cargo build -p mac-sim) or set MACSIM_CLI")

    def run(*args, check=True):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"mac-sim {' '.join(map(str, args))} failed: {p.stderr}")
        return p

    return run


def record(name, value):
    """Keeps a measured figure in the artifacts (figures.json) for BENCHMARKS.md."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    f = ARTIFACTS / "figures.json"
    data = json.loads(f.read_text()) if f.exists() else {}
    data[name] = value
    f.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
