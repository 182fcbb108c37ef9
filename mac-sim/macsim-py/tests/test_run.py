"""`macsim.run` and `macsim.Scenario` against `mac-sim run` with the same arguments."""

import io

import pandas as pd
import pytest

import macsim

ARGS = dict(stations=16, frames="64:7,594:4,1518:1", load=0.6, duration="200ms", seed=3)
FLAGS = ["-n", "16", "-f", "64:7,594:4,1518:1", "-l", "0.6", "-d", "200ms", "-s", "3"]


def test_run_summary_equals_cli_json(cli_json):
    r = macsim.run(**ARGS)
    want = cli_json("run", *FLAGS, "--json", "-q")
    scenario = want.pop("scenario")
    assert r.summary == want
    assert r.scenario == macsim.Scenario.from_json(
        __import__("json").dumps({"scenario": scenario})
    )


def test_scenario_repeats_the_run_exactly():
    r = macsim.run(**ARGS)
    again = macsim.run(scenario=r.scenario)
    assert again.summary == r.summary
    assert set(r.scenario.keys()) == {f[0] for f in macsim.FIELDS}
    assert macsim.Scenario.from_toml(r.scenario.to_toml()) == r.scenario


def test_csv_row_equals_cli_csv(cli):
    r = macsim.run(**ARGS)
    want = pd.read_csv(io.StringIO(cli("run", *FLAGS, "--csv", "-q").stdout))
    got = r.csv_row
    assert list(got.columns) == list(want.columns)
    assert len(got) == 1
    for c in want.columns:
        a, b = got[c].iloc[0], want[c].iloc[0]
        if pd.isna(b):
            assert pd.isna(a), c
        elif isinstance(b, float) or isinstance(a, float):
            assert a == pytest.approx(b, rel=1e-6, abs=1e-6, nan_ok=True), c
        else:
            assert str(a) == str(b), c
    assert got["stations"].dtype == "int64"
    assert got["utilisation_fraction"].dtype == "float64"


def test_per_station_equals_cli_csv(cli):
    r = macsim.run(per_station=True, **ARGS)
    want = pd.read_csv(io.StringIO(cli("run", *FLAGS, "--csv", "--per-station", "-q").stdout))
    got = r.per_station
    assert list(got.columns) == list(want.columns)
    assert len(got) == 16
    assert list(got["station"]) == list(range(16))
    assert got["station"].dtype == "int64"
    assert got["station_delivered_frames"].dtype == "int64"
    assert got["station_throughput_mbps"].dtype == "float64"
    assert list(got["station_delivered_frames"]) == list(want["station_delivered_frames"])
    assert macsim.run(**ARGS).per_station is None


@pytest.mark.parametrize(
    "params,key",
    [
        (dict(stations=0), "stations"),
        (dict(stations="many"), "stations"),
        (dict(load=-1), "load"),
        (dict(backoff="poly:x"), "backoff"),
        (dict(attempt_limit=0), "attempt_limit"),
        (dict(duration="10 parsecs"), "duration"),
        (dict(stattions=3), "stattions"),
        (dict(stations=[1, 2]), "stations"),
    ],
)
def test_bad_parameters_raise_value_error_as_the_cli_says(cli, params, key):
    with pytest.raises(ValueError) as e:
        macsim.run(**params)
    msg = str(e.value)
    assert msg.startswith(f"{key}: "), msg
    if key in macsim.Scenario().complete().keys() and not isinstance(params[key], list):
        flag = "--" + key.replace("_", "-")
        p = cli("run", flag, str(params[key]), "-q", check=False)
        assert p.returncode == 2
        assert msg in p.stderr, (msg, p.stderr)


@pytest.mark.parametrize(
    "params,flags",
    [
        (dict(queue_limit=5, load="saturated"), ["--queue-limit", "5", "-l", "saturated"]),
        (dict(placement_seed=3), ["--placement-seed", "3"]),
        (dict(backoff_limit=4, backoff="fixed:8"), ["--backoff-limit", "4", "--backoff", "fixed:8"]),
    ],
)
def test_a_parameter_without_effect_is_refused_as_the_cli_refuses_it(cli, params, flags):
    """A keyword argument that the run (or no point of a sweep) reads is refused, in
    the command line's words; the same value in a Scenario read from a file is not
    (a ``run --json`` result states every parameter)."""
    with pytest.raises(ValueError) as e:
        macsim.run(duration="1ms", **params)
    p = cli("run", "-d", "1ms", *flags, "-q", check=False)
    assert p.returncode == 2 and str(e.value) in p.stderr, (str(e.value), p.stderr)
    with pytest.raises(ValueError) as e:
        macsim.sweep(stations=[2, 3], duration="1ms", replications=1, progress=False,
                     **params)
    assert str(e.value) in p.stderr
    key = next(iter(params))
    # One point that reads it is enough for a sweep.
    if key == "queue_limit":
        macsim.sweep(stations=[2], load=["saturated", 0.5], queue_limit=5,
                     duration="1ms", replications=1, progress=False)


def test_a_scenario_from_a_result_runs_though_it_states_every_parameter(tmp_path, cli):
    want = cli("run", "-l", "saturated", "-d", "1ms", "--json", "-q").stdout
    (tmp_path / "r.json").write_text(want)
    r = macsim.run(tmp_path / "r.json")
    assert r.scenario.get("queue_limit") is not None


def test_scenario_class():
    s = macsim.Scenario(stations=8, load="saturated", carrier_extension=False)
    assert s.keys() == ["stations", "load", "carrier_extension"]
    assert s.get("stations") == "8" and s.get("velocity") is None
    assert s.to_dict() == {"stations": 8, "load": "saturated", "carrier_extension": False}
    assert s == macsim.Scenario(stations="8", load="saturated", carrier_extension="false")
    assert s != macsim.Scenario(stations=9)
    assert s.replace(stations=9).get("stations") == "9"
    assert macsim.Scenario.from_toml(s.to_toml()) == s
    assert "stations" in repr(s)
    with pytest.raises(ValueError, match=r"^<toml>:2: queue_limt"):
        macsim.Scenario.from_toml("seed = 1\nqueue_limt = 3\n")
    full = s.complete()
    assert len(full.keys()) == len(macsim.FIELDS)
    import pickle

    assert pickle.loads(pickle.dumps(s)) == s


def test_scenario_file_and_json_result_as_the_cli_reads_them(tmp_path, cli):
    f = tmp_path / "s.toml"
    f.write_text('stations = 5\nduration = "20ms"\nload = 0.4\n')
    r = macsim.run(f)
    want = cli("run", "--scenario", f, "--json", "-q").stdout
    (tmp_path / "r.json").write_text(want)
    assert macsim.Scenario.from_file(str(tmp_path / "r.json")) == r.scenario
    assert macsim.run(tmp_path / "r.json").summary == r.summary


def test_help_lists_every_parameter_with_its_unit():
    doc = macsim.run.__doc__
    for key, _value, help_text, _flag in macsim.FIELDS:
        assert f"\n{key} (" in doc, key
        assert help_text.strip().splitlines()[0] in doc
    assert "metres" in doc and "bit times" in doc
    assert "\nstations (" in macsim.sweep.__doc__


def test_storm_and_radio_help_end_with_their_keys(cli):
    """Each model's help ends with its reference of keys, the same text as
    ``--keys`` prints: a key added to the schema is in the help with no other edit."""
    assert macsim.storm.__doc__.endswith(cli("storm", "--keys").stdout)
    assert "listen_backlog" in macsim.storm.__doc__
    assert macsim.radio.__doc__.endswith(cli("radio", "--keys").stdout)
    assert "cca_threshold_dbm" in macsim.radio.__doc__


def test_extras(cli_json):
    assert macsim.backoff.decide(0, 1) == 0
    assert macsim.backoff.decide(16, 1) is None
    d = macsim.backoff.decide([1, 2, 3], 7)
    assert d == macsim.backoff.decide([1, 2, 3], 7)
    assert all(0 <= x < 2**c for c, x in zip([1, 2, 3], d))
    assert len(list(macsim.backoff.delays(5))) == 15
    assert macsim.backoff.window(12) == 1024
    assert macsim.theory.expected_backoff(3) == 3.5
    assert macsim.theory.mb_efficiency(1) == 1.0
    got = macsim.slotted(stations=8, successes=10000, seed=2)
    want = cli_json("slotted", "-n", "8", "--successes", "10000", "-s", "2", "--json")
    assert got == want


def test_trace_equals_cli_trace_csv(cli, tmp_path):
    r = macsim.run(trace=True, **ARGS)
    path = tmp_path / "trace.csv"
    cli("run", *FLAGS, "--trace", path, "-q")
    want = pd.read_csv(path)
    got = r.trace
    assert len(got) > 1000
    pd.testing.assert_frame_equal(got, want)
    assert got is r.trace  # built once
    # The documented dtypes, whatever pandas would guess from a file.
    dtypes = {c: str(t) for c, t in got.dtypes.items()}
    assert dtypes == {
        "time_ps": "int64", "station": "int64", "kind": dtypes["kind"], "collisions": "int64",
        "backoff_slots": "float64", "frame_bits": "int64", "access_delay_ps": "float64",
    }
    assert dtypes["kind"] in ("object", "str", "string")
    assert set(got["kind"]) <= {"transmit", "defer", "collision", "jam_end", "success", "drop"}
    # Empty cells are NaN exactly where the file has none.
    assert got.loc[got["backoff_slots"].notna(), "kind"].eq("jam_end").all()
    assert got["backoff_slots"].notna().any()
    assert got["access_delay_ps"].notna().equals(got["kind"].eq("success"))
    assert (got["kind"] == "success").sum() == r.summary["conservation"]["delivered_frames"]
    # The trace changes nothing else, and goes with the per-station results.
    both = macsim.run(trace=True, per_station=True, **ARGS)
    assert both.summary == macsim.run(**ARGS).summary == r.summary
    pd.testing.assert_frame_equal(both.trace, want)
    assert len(both.per_station) == 16
    assert macsim.run(**ARGS).trace is None


def test_run_progress_callable_is_driven():
    calls = []
    # About 0.2 s or more: the calling thread reports every 20 ms.
    macsim.run(stations=256, duration="20s", progress=lambda done, total: calls.append((done, total)))
    assert len(calls) >= 2, calls
    assert all(total == 64 for _, total in calls)
    done = [d for d, _ in calls]
    assert done == sorted(set(done)), "counts increase, each reported once"
    assert done[-1] == 64
    assert macsim.run(**ARGS, progress=False).summary == macsim.run(**ARGS).summary


def test_an_error_in_the_progress_callable_stops_the_run():
    def broken(done, total):
        raise ZeroDivisionError("in the callable")

    with pytest.raises(ZeroDivisionError, match="in the callable"):
        macsim.run(stations=256, duration="20s", progress=broken)


def test_progress_bar_with_tqdm_after_its_delay(capsys):
    pytest.importorskip("tqdm")
    # A call over before the delay shows no bar at all.
    quick = macsim._progress_bar(True, "run", "slice", delay=60, counts=False)
    quick(64, 64)
    assert capsys.readouterr().err == ""
    # Past the delay (here none), the share done and the time, without the counts.
    bar = macsim._progress_bar(True, "run", "slice", delay=0, counts=False)
    for done in (1, 32, 64):
        bar(done, 64)
    err = capsys.readouterr().err
    assert "run: 100%" in err and "64/64" not in err
    assert macsim._progress_bar(False, "run", "slice") is None
    f = lambda done, total: None  # noqa: E731
    assert macsim._progress_bar(f, "run", "slice") is f
