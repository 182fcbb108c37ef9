"""`macsim.storm` against `mac-sim storm` with the same options."""

import io
import json

import pandas as pd
import pytest

import macsim


def test_storm_equals_cli(cli):
    r = macsim.storm("pause", seed=2, horizon="60s")
    flags = ["storm", "--scenario", "pause", "-s", "2", "-d", "60s", "-q"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    summary = pd.read_csv(io.StringIO(cli(*flags, "--csv").stdout))
    series = pd.read_csv(io.StringIO(cli(*flags, "--series").stdout))
    pd.testing.assert_frame_equal(r.summary, summary)
    pd.testing.assert_frame_equal(r.series, series)
    assert list(r.summary["strategy"]) == ["fixed 100 ms", "exp + full jitter"]
    assert r.summary["events"].dtype == "int64"


def test_storm_bad_options_raise_value_error(cli):
    with pytest.raises(ValueError) as e:
        macsim.storm("no-such-preset")
    p = cli("storm", "--scenario", "no-such-preset", "-q", check=False)
    assert p.returncode != 0 and str(e.value) in p.stderr
    with pytest.raises(ValueError, match="duration"):
        macsim.storm("pause", horizon="soon")
    with pytest.raises(ValueError):
        macsim.storm("pause", strategies=["exp+nonsense=3"])


def test_storm_progress_callable_reaches_the_total():
    calls = []
    macsim.storm("pause", horizon="60s", progress=lambda d, n: calls.append((d, n)))
    # One run of each of the two strategies.
    assert calls and calls[-1] == (2, 2)
    done = [d for d, _ in calls]
    assert done == sorted(set(done))
