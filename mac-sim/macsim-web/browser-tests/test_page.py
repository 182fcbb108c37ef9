"""The page against the command line: the same numbers, the same events, the same
files, the same messages; and the page's own controls."""

import base64
import json
import os
import shutil
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import ARTIFACTS, ROOT, record

PREFIX = "mac-sim: error: "


def page_result(page):
    return json.loads(page.js("return macsimPage.sim.result()"))


def cli_result(cli, *args):
    return json.loads(cli("run", "-q", "--json", *args).stdout)


def test_default_run_at_full_speed_shows_the_cli_numbers(page, cli):
    page.open()
    page.screenshot("1-start.png")
    Select(page.el("speed")).select_by_value("max")
    page.click("play")
    page.wait_done()
    want = cli_result(cli)  # the defaults: 32 stations, 10 s, seed 1
    got = page.results()
    assert got["r-delivered"] == str(want["conservation"]["delivered_frames"])
    assert got["r-collisions"] == str(want["collision_events"])
    assert got["r-collided"] == str(want["collided_attempts"])
    assert got["r-dropped"] == str(want["conservation"]["dropped_excessive_frames"])
    assert float(got["r-utilisation"]) == want["utilisation_fraction"]
    rows = page.js(
        "return [...document.querySelectorAll('#ec-table tbody tr')].map(r => "
        "[Number(r.dataset.c), Number(r.dataset.draws), Number(r.dataset.mean)])"
    )
    assert rows == [[b["collisions"], b["draws"], b["mean_slots"]] for b in want["backoff"]]
    # The whole result, as `mac-sim run --json` writes it.
    assert page_result(page) == want
    page.screenshot("3-end-of-default-run.png")
    perf = page.el("perf")
    record("page_play_full_speed_ms", float(perf.get_attribute("data-ms")))
    record("page_play_events", int(perf.get_attribute("data-events")))
    page.click("reset")
    page.run_to_end()
    record("page_engine_run_to_end_ms", float(page.el("perf").get_attribute("data-engine-ms")))


def trace_rows(cli, tmp_path, *args):
    f = tmp_path / "trace.csv"
    cli("run", "-q", "--trace", f, *args)
    lines = f.read_text().splitlines()
    assert lines[0].startswith("time_ps,station,kind,collisions,backoff_slots")
    return [l.split(",") for l in lines[1:]]


@pytest.mark.parametrize("seed", [1, 5])
def test_stepping_to_the_first_collision_shows_the_trace(page, cli, tmp_path, seed):
    page.open(f"?stations=2&seed={seed}")
    Select(page.el("zoom")).select_by_value("50")
    page.click("next-collision")
    got = page.events()
    assert any(k == "collision" for _, _, _, k, _, _ in got)
    want = trace_rows(cli, tmp_path, "-n", 2, "-s", seed, "-d", "1ms")
    assert [i for i, *_ in got] == list(range(len(got))), "events are numbered from the start, none missing"
    assert [[t, str(k), kind, str(c), r] for _, t, k, kind, c, r in got] == [w[:5] for w in want[: len(got)]]
    if seed == 1:
        page.screenshot("2-first-collision.png")
    # One more step shows the next event of the trace.
    page.click("step")
    more = page.events()
    assert len(more) > len(got)
    assert [t for _, t, *_ in more] == [w[0] for w in want[: len(more)]]


def test_a_link_reproduces_its_run(page, cli):
    q = "?stations=7&load=0.5&frames=64:7,594:4,1518:1&duration=50ms&seed=9&placement=random"
    page.open(q)
    assert page.el("p-stations").get_attribute("value") == "7"
    assert page.el("p-frames").get_attribute("value") == "64:7,594:4,1518:1"
    page.run_to_end()
    want = cli_result(cli, "-n", 7, "-l", 0.5, "-f", "64:7,594:4,1518:1", "-d", "50ms", "-s", 9, "-p", "random")
    assert page_result(page) == want
    # Applying the same controls keeps the link.
    page.click("apply")
    from urllib.parse import parse_qs
    assert parse_qs(page.js("return location.search")[1:]) == parse_qs(q[1:])


def test_exported_toml_runs_in_the_cli_with_identical_results(page, cli, tmp_path):
    page.open()
    for k, v in [("stations", "5"), ("placement", "random"), ("backoff", "linear"), ("seed", "4"), ("duration", "30ms")]:
        page.set_control(k, v)
    page.click("apply")
    assert "stations=5" in page.js("return location.search")
    page.run_to_end()
    toml = page.js("return macsimPage.exportToml()")
    f = tmp_path / "exported.toml"
    f.write_text(toml)
    assert page_result(page) == cli_result(cli, "--scenario", f)
    page.click("export-toml")  # the download itself raises no error


def test_imported_toml_sets_the_controls_and_runs(page, cli):
    page.open()
    page.js("macsimPage.importToml(arguments[0])", 'stations = 3\nseed = 8\nduration = "5ms"\nbackoff = "fixed:16"\n')
    assert page.el("p-stations").get_attribute("value") == "3"
    page.run_to_end()
    assert page_result(page) == cli_result(cli, "-n", 3, "-s", 8, "-d", "5ms", "-b", "fixed:16")
    page.js("macsimPage.importToml(arguments[0])", 'stations = 3\nseed = "eight"\n')
    assert page.text("error").startswith("scenario.toml:2: seed")


@pytest.mark.parametrize(
    "controls, flags",
    [
        ({"stations": "0"}, ["-n", "0"]),
        ({"frames": "10"}, ["--frames", "10"]),
        ({"medium": "10BASE5", "length_m": "3000"}, ["--medium", "10BASE5", "--length-m", "3000"]),
        ({"duration": "ten"}, ["-d", "ten"]),
    ],
)
def test_a_bad_value_shows_the_cli_message_and_the_page_keeps_working(page, cli, controls, flags):
    page.open("?stations=4&duration=5ms")
    for k, v in controls.items():
        page.set_control(k, v)
    page.click("apply")
    p = cli("run", "-q", *(["-d", "1ms"] if "-d" not in flags else []), *flags, check=False)
    assert p.returncode == 2
    message = p.stderr.strip()
    assert message.startswith(PREFIX)
    assert page.text("error") == message[len(PREFIX):]
    # The run that was there still runs.
    assert page.js("return JSON.parse(macsimPage.sim.layout()).stations") == 4
    before = page.js("return macsimPage.sim.recorded()")
    page.click("step")
    assert page.js("return macsimPage.sim.recorded()") > before


def test_a_long_run_to_the_end_keeps_the_page_answering_and_stops_at_once(page):
    # A million simulated seconds: hours of the engine's work.
    page.open("?stations=32&duration=1000000s")
    page.click("run-end")
    WebDriverWait(page.d, 10, poll_frequency=0.02).until(lambda d: page.js("return macsimPage.sim.now_ps()") > 0)
    # The page answered the poll between slices; the button is now Stop.
    assert page.text("run-end") == "Stop"
    t0 = time.perf_counter()
    page.click("run-end")
    stopped_ms = (time.perf_counter() - t0) * 1e3
    at = page.js("return macsimPage.sim.now_ps()")
    time.sleep(0.3)
    assert page.js("return macsimPage.sim.now_ps()") == at, "nothing runs after Stop"
    assert page.text("run-end") == "Run to end"
    assert page.el("status").get_attribute("data-done") == "0"
    assert page.text("perf").startswith("Stopped at ")
    # A click waits at most for the task under way: a slice and its drawing. The
    # WebDriver click itself (several round trips, each waiting for a task) is
    # recorded, with a bound loose enough for a busy machine.
    longest = float(page.el("perf").get_attribute("data-longest-task-ms"))
    record("page_run_to_end_longest_task_ms", longest)
    record("page_run_to_end_longest_slice_ms", float(page.el("perf").get_attribute("data-longest-slice-ms")))
    record("page_stop_click_ms", round(stopped_ms, 1))
    assert longest < 1000 and stopped_ms < 5000, (longest, stopped_ms)
    # Run to end goes on from where it stopped.
    page.click("run-end")
    WebDriverWait(page.d, 10, poll_frequency=0.02).until(lambda d: page.js("return macsimPage.sim.now_ps()") > at)
    page.click("run-end")


def test_a_bad_link_says_why_and_shows_the_defaults(page):
    page.open("?stations=0")
    assert page.text("error") == "stations: the number of stations must be at least 1"
    assert page.js("return JSON.parse(macsimPage.sim.layout()).stations") == 32


def test_the_capture_is_the_one_the_cli_writes(page, cli, tmp_path):
    page.open("?stations=4&duration=20ms&seed=2")
    page.run_to_end()
    got = base64.b64decode(page.js(
        "const b = macsimPage.sim.pcapng(); let s = ''; for (const x of b) s += String.fromCharCode(x); return btoa(s);"
    ))
    f = tmp_path / "run.pcapng"
    cli("run", "-q", "-n", 4, "-d", "20ms", "-s", 2, "--pcap", f)
    assert got == f.read_bytes()
    assert got[:4] == b"\x0a\x0d\x0d\x0a"
    page.click("pcap")


def test_clicking_an_event_explains_it_with_its_clause(page):
    page.open("?stations=2&seed=1")
    Select(page.el("zoom")).select_by_value("50")
    page.click("next-collision")
    row = page.d.find_element("css selector", "#events tbody tr[data-kind='collision']")
    row.click()
    detail = page.text("event-detail")
    assert "collision 1 of this frame detected" in detail
    assert "IEEE 802.3 4.2.3.2.3" in detail
    # On the diagram: click the marker of the first transmission.
    hit = page.js(
        "const h = macsimPage.diagram.hits.find(h => h.i === 0); const c = document.getElementById('diagram');"
        "const r = c.getBoundingClientRect(); const s = r.width / c.width;"
        "return [h.x * s - r.width / 2, h.y * s - r.height / 2];"
    )
    ActionChains(page.d).move_to_element_with_offset(page.el("diagram"), int(hit[0]), int(hit[1])).click().perform()
    assert page.text("event-detail").startswith("Station 0, transmit at 0.000000")


def test_keyboard_shortcuts(page):
    page.open("?stations=3&seed=2")
    body = page.d.find_element("tag name", "body")
    body.send_keys("c")
    assert any(k == "collision" for _, _, _, k, _, _ in page.events())
    n = len(page.events())
    body.send_keys(Keys.ARROW_RIGHT)
    assert len(page.events()) > n
    body.send_keys(" ")
    assert page.text("play") == "Pause"
    body.send_keys(" ")
    assert page.text("play") == "Play"
    body.send_keys("r")
    assert page.events() == []


def test_the_backoff_explorer_draws_against_the_closed_forms(page):
    page.open()
    page.el("ex-c").clear()
    page.el("ex-c").send_keys("4")
    page.click("ex-draw")
    s = page.text("ex-summary")
    assert "W = 16" in s and "E(c) = 7.5" in s
    page.el("ex-c").clear()
    page.el("ex-c").send_keys("16")
    page.click("ex-draw")
    assert page.text("ex-error").startswith("collisions: 16 is out of range")


def test_the_page_requests_nothing_beyond_its_folder(page, server):
    base, requested = server
    page.open()
    urls = page.js("return performance.getEntriesByType('resource').map(e => e.name)")
    assert urls, "the page loads its scripts and the engine"
    assert all(u.startswith(base) for u in urls), urls
    size = os.path.getsize(ROOT / "mac-sim" / "macsim-web" / "www" / "pkg" / "macsim_web_bg.wasm")
    record("wasm_bytes", size)
    assert size < 1 << 20, f"the engine is {size} bytes, over the 1 MiB budget"


def test_a_busy_bus_explained(page):
    """The README's picture: eight stations a few collisions in, one explained."""
    page.open("?stations=8&seed=4")
    Select(page.el("zoom")).select_by_value("50")
    for _ in range(4):
        page.click("next-collision")
    rows = page.d.find_elements("css selector", "#events tbody tr[data-kind='transmit']")
    rows[0].click()
    assert "IEEE 802.3 4.2.3.2" in page.text("event-detail")
    page.screenshot("4-busy-bus-explained.png")
    if os.environ.get("MACSIM_WEB_DOCS") == "1":
        shutil.copy(ARTIFACTS / "4-busy-bus-explained.png", ROOT / "docs" / "web-page.png")
