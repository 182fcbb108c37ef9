"""`macsim.storm` against `mac-sim storm` with the same options."""

import io
import pathlib
import json
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

import macsim


def csv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text))


def test_storm_equals_cli(cli):
    r = macsim.storm("pause", seed=2, horizon="60s")
    flags = ["storm", "--scenario", "pause", "-s", "2", "-d", "60s", "-q"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    pd.testing.assert_frame_equal(r.summary, csv(cli(*flags, "--csv").stdout))
    pd.testing.assert_frame_equal(r.series, csv(cli(*flags, "--series").stdout))
    assert list(r.summary["strategy"]) == ["fixed 100 ms", "exp + full jitter"]
    assert r.summary["events"].dtype == "int64"


def test_storm_over_seeds_equals_cli(cli):
    r = macsim.storm("pause", seed=2, horizon="60s", seeds=3)
    flags = ["storm", "--scenario", "pause", "-s", "2", "-d", "60s", "--seeds", "3", "-q"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    pd.testing.assert_frame_equal(r.summary, csv(cli(*flags, "--csv").stdout))
    pd.testing.assert_frame_equal(r.series, csv(cli(*flags, "--series").stdout))
    assert list(r.summary["seeds"]) == [3, 3]


def test_storm_sweep_equals_cli(cli):
    r = macsim.storm("metastable", sweep="utilisation=0.4,0.93", seeds=2)
    flags = ["storm", "--scenario", "metastable", "--sweep", "utilisation=0.4,0.93",
             "--seeds", "2", "-q"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    pd.testing.assert_frame_equal(r.summary, csv(cli(*flags, "--csv").stdout))
    assert r.series is None
    assert list(r.summary["value"]) == [0.4, 0.4, 0.93, 0.93]
    # The same sweep as (parameter, values).
    same = macsim.storm("metastable", sweep=("utilisation", [0.4, 0.93]), seeds=2)
    pd.testing.assert_frame_equal(same.summary, r.summary)


def test_storm_progress_callable_reaches_the_total():
    calls = []
    macsim.storm("pause", horizon="60s", seeds=2, progress=lambda d, n: calls.append((d, n)))
    # Two strategies over two seeds.
    assert calls and calls[-1] == (4, 4)
    done = [d for d, _ in calls]
    assert done == sorted(set(done))


def test_storm_bad_options_raise_value_error(cli):
    with pytest.raises(ValueError) as e:
        macsim.storm("no-such-preset")
    p = cli("storm", "--scenario", "no-such-preset", "-q", check=False)
    assert p.returncode != 0 and str(e.value) in p.stderr
    with pytest.raises(ValueError, match="^horizon=\"soon\": 'soon' must be a positive time"):
        macsim.storm("pause", horizon="soon")
    with pytest.raises(ValueError):
        macsim.storm("pause", strategies=["exp+nonsense=3"])
    for kwargs, flags in [
        (dict(seeds=0), ["--seeds", "0"]),
        (dict(sweep="nonsense=1,2"), ["--sweep", "nonsense=1,2"]),
        (dict(sweep="clients=2.5"), ["--sweep", "clients=2.5"]),
    ]:
        with pytest.raises(ValueError) as e:
            macsim.storm("metastable", **kwargs)
        p = cli("storm", "--scenario", "metastable", *flags, "-q", check=False)
        assert p.returncode != 0 and str(e.value) in p.stderr, (str(e.value), p.stderr)
    with pytest.raises(ValueError, match="^contention takes only seed, seeds, clients, set and sweep"):
        macsim.storm("contention", horizon="10s")
    with pytest.raises(ValueError, match="^sweep: expected"):
        macsim.storm("metastable", sweep=["utilisation", 0.5])


def test_storm_set_and_key_sweep_equal_cli(cli):
    """``set`` is ``--set``, a sweep of a file's key is ``--sweep KEY=LIST``: the same
    JSON and CSV; a duration's values stay text, a number's are numbers."""
    r = macsim.storm("pause", set={"server.workers": 30, "trigger.end": "35s"},
                     horizon="60s", progress=False)
    flags = ["storm", "--scenario", "pause", "--set", "server.workers=30",
             "--set", "trigger.end=35s", "-d", "60s", "-q"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    pd.testing.assert_frame_equal(r.summary, csv(cli(*flags, "--csv").stdout))
    for sweep, values in [
        (("trigger.end", ["25s", "35s"]), ["25s", "25s", "35s", "35s"]),
        (("server.workers", [30, 50]), [30, 30, 50, 50]),
    ]:
        got = macsim.storm("pause", sweep=sweep, horizon="60s", progress=False)
        text = f"{sweep[0]}=" + ",".join(str(v) for v in sweep[1])
        args = ["storm", "--scenario", "pause", "--sweep", text, "-d", "60s", "-q"]
        assert got.result == json.loads(cli(*args, "--json").stdout)
        pd.testing.assert_frame_equal(got.summary, csv(cli(*args, "--csv").stdout))
        assert list(got.summary["value"]) == values


def test_storm_set_errors_name_the_setting(cli):
    with pytest.raises(ValueError, match="^set server.workers=0: the server needs"):
        macsim.storm("pause", set={"server.workers": 0})
    with pytest.raises(ValueError, match="no such key: see mac-sim storm --keys"):
        macsim.storm("pause", set={"server.worker": 1})
    with pytest.raises(ValueError, match="^set: expected a dict"):
        macsim.storm("pause", set=["server.workers=1"])
    with pytest.raises(ValueError, match="^set: a value is"):
        macsim.storm("pause", set={"server.workers": {1: 2}})
    with pytest.raises(ValueError, match="^set: horizon is also given as the argument"):
        macsim.storm("pause", horizon="60s", set={"horizon": "50s"})


def test_contention_from_a_file_equals_the_cli(cli, tmp_path):
    """A contention experiment's own file, with a key set, as the command line runs it."""
    f = tmp_path / "mine.toml"
    f.write_text('experiment = "contention"\n[contention]\nclients = [10, 20]\n')
    r = macsim.storm(f, set={"contention.base": "2ms"}, progress=False)
    args = ["storm", "--scenario", str(f), "--set", "contention.base=2ms", "-q"]
    assert r.result == json.loads(cli(*args, "--json").stdout)
    assert sorted(set(r.summary["clients"])) == [10, 20]


@pytest.mark.parametrize("seeds", [1, 2])
def test_contention_sweep_equals_the_cli(cli, seeds):
    r = macsim.storm("contention", sweep=("contention.base", ["1ms", "5ms"]),
                     set={"contention.clients": [10, 20]}, seeds=seeds, progress=False)
    args = ["storm", "--scenario", "contention", "--sweep", "contention.base=1ms,5ms",
            "--set", "contention.clients=10,20", "--seeds", seeds, "-q"]
    assert r.result == json.loads(cli(*args, "--json").stdout)
    pd.testing.assert_frame_equal(r.summary, csv(cli(*args, "--csv").stdout))
    assert list(r.summary.columns[:2]) == ["param", "value"]
    assert sorted(set(r.summary["value"])) == ["1ms", "5ms"]
    assert r.series is None


STORM_SCRIPT = """
import signal, sys, macsim
signal.signal(signal.SIGINT, signal.default_int_handler)
print("start", flush=True)
try:
    macsim.storm("pause", seeds=1000, progress=False)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


def test_sigint_during_a_storm_raises_keyboard_interrupt():
    p = subprocess.Popen([sys.executable, "-c", STORM_SCRIPT], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(0.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    latency = time.monotonic() - t0
    assert p.returncode == 130 and out.strip() == "KeyboardInterrupt", out
    print(f"storm: KeyboardInterrupt {latency * 1000:.0f} ms after SIGINT")
    assert latency < 2.0


@pytest.mark.parametrize("seeds", [1, 3])
def test_contention_equals_the_cli(cli, seeds):
    r = macsim.storm("contention", clients=50, seeds=seeds, progress=False)
    args = ["storm", "--scenario", "contention", "--clients", "50", "--seeds", seeds, "-q"]
    assert r.result == json.loads(cli(*args, "--json").stdout)
    assert r.series is None
    assert list(r.summary.columns) == cli(*args, "--csv").stdout.splitlines()[0].split(",")


def test_storm_sweep_kept_in_a_database(cli, tmp_path):
    db = tmp_path / "storm.db"
    args = dict(sweep="utilisation=0.4,0.93", seeds=2, clients=20, progress=False)
    first = macsim.storm("metastable", db=db, **args)
    flags = ["storm", "--scenario", "metastable", "--sweep", "utilisation=0.4,0.93",
             "--seeds", "2", "-n", "20", "-q"]
    # The command line reads the runs Python stored: the same results, none run again.
    assert first.result == json.loads(cli(*flags, "--db", db, "--json").stdout)
    assert first.result == json.loads(cli(*flags, "--json").stdout)
    runs = macsim.read_campaign(db)
    assert len(runs) == 2 * 2 * 2  # values x strategies x seeds
    assert set(runs["sweep_value"]) == {"0.4", "0.93"}
    assert "record" not in runs.columns and "record_sha256" not in runs.columns
    with pytest.raises(ValueError, match="^db keeps the runs of a storm scenario's sweep"):
        macsim.storm("pause", db=tmp_path / "one.db")


POLICIES = pathlib.Path(__file__).resolve().parents[2] / "retry-storm" / "policies"


@pytest.mark.parametrize("name", ["grpc-retry.json", "aws-standard.ini"])
def test_report_card_equals_cli(cli, name):
    path = POLICIES / name
    df = macsim.report_card(path, rate=80, capacity=200, timeout="800ms", seed=3)
    out = cli("storm", "--policy", path, "--rate", "80", "--capacity", "200",
              "--timeouts", "800ms", "-s", "3", "--csv").stdout
    want = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""])
    pd.testing.assert_frame_equal(df, want)
    assert list(df["incident"]) == ["outage", "pause", "partial", "slow", "overload"]
    assert set(df["verdict"]) <= {"good", "risky", "fails"}


def test_report_card_refuses_what_it_cannot_express_with_its_line(tmp_path):
    bad = tmp_path / "legacy.ini"
    bad.write_text("[default]\nretry_mode = legacy\n")
    with pytest.raises(ValueError, match=r"legacy\.ini:2: retry_mode: retry_mode legacy is not modelled"):
        macsim.report_card(bad)
    with pytest.raises(ValueError, match=r"rate=0: must be a positive number"):
        macsim.report_card(POLICIES / "grpc-retry.json", rate=0)
    with pytest.raises(ValueError, match=r'timeout="1": a duration'):
        macsim.report_card(POLICIES / "grpc-retry.json", timeout="1")
