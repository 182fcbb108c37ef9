"""The page's folder served on 127.0.0.1 and Debian's Chromium driven by Selenium:
shared by the tests (conftest.py) and the benchmark (../bench.py)."""

import functools
import http.server
import os
import pathlib
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

WEB = pathlib.Path(__file__).resolve().parents[1]
ROOT = WEB.parents[1]


def serve():
    """Serves www/ on an ephemeral port of 127.0.0.1 from a thread; returns the base
    URL, the list of paths requested (it grows) and the server (to shut down)."""
    if not (WEB / "www" / "pkg" / "macsim_web_bg.wasm").is_file():
        raise SystemExit("www/pkg is missing: run mac-sim/macsim-web/build.sh first")
    requested = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            requested.append(self.path)
            super().do_GET()

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(WEB / "www"))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}/", requested, httpd


def chromium():
    """Headless Chromium ($CHROMIUM, else /usr/bin/chromium) with its driver
    ($CHROMEDRIVER, else /usr/bin/chromedriver), keeping the browser's log."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1600,1150"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=opts)
