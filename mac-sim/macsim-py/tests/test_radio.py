"""`macsim.radio` against `mac-sim radio` with the same keys: the same JSON and the
same table, one run and a sweep; the command line's errors, raised as ValueError."""

import io
import json

import pandas as pd
import pytest

import macsim


def table(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])


def test_one_run_equals_cli(cli):
    r = macsim.radio(stations=6, rule="dcf", duration="500ms", warmup="0s", seed=3)
    flags = ["radio", "-n", "6", "--rule", "dcf", "-d", "500ms", "--warmup", "0s", "-s", "3"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    pd.testing.assert_frame_equal(r.table, table(cli(*flags, "--csv").stdout))
    assert r.table["stations"][0] == 6 and r.table["rule"][0] == "dcf"
    assert r.table["delivered_frames"].dtype == "int64"
    # The parameters' columns carry their units.
    assert "radius_m" in r.table.columns and "duration_s" in r.table.columns


def test_sweep_equals_cli_and_keeps_its_order(cli, tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('traffic = "poisson"\nrule = "beb"\n')
    r = macsim.radio(
        scenario,
        sweep={"stations": [3, 5], "load": "0.1..=0.3:0.1"},
        duration="300ms",
        warmup="0s",
        progress=False,
    )
    flags = ["radio", "--scenario", scenario, "--sweep", "stations=3,5",
             "--sweep", "load=0.1..=0.3:0.1", "-d", "300ms", "--warmup", "0s", "-q"]
    assert r.result == json.loads(cli(*flags, "--json").stdout)
    pd.testing.assert_frame_equal(r.table, table(cli(*flags, "--csv").stdout))
    # The first key varies slowest.
    assert list(r.table["stations"]) == [3, 3, 3, 5, 5, 5]
    assert list(r.table["load"]) == [0.1, 0.2, 0.3] * 2


def test_a_figure_with_nothing_to_measure_is_nan():
    r = macsim.radio(stations=3, duration="1ms", warmup="0s")
    assert r.table["delivered_frames"][0] == 0
    assert r.table["delivery_fraction"].isna().all() and r.table["delay_p50_us"].isna().all()
    assert r.result["delivery_fraction"] is None


def test_bad_keys_and_values_raise_the_cli_message(cli):
    with pytest.raises(ValueError, match=r"^stations: 1 must be 2 to 254$"):
        macsim.radio(stations=1)
    with pytest.raises(ValueError, match=r"^lode: unknown parameter 'lode'"):
        macsim.radio(lode=0.3)
    with pytest.raises(ValueError, match=r"^load: has no effect with traffic \"saturated\""):
        macsim.radio(load=0.3)
    with pytest.raises(ValueError, match=r"^topology: 'ring' is not all, line"):
        macsim.radio(topology="ring")
    with pytest.raises(ValueError, match=r"sweep axis is a list"):
        macsim.radio(sweep={"stations": {2: 3}})
    with pytest.raises(ValueError, match=r"^sweep: expected a dict"):
        macsim.radio(sweep=["stations"])
    # The same words as the command line.
    cli_error = cli("radio", "-n", "1", check=False).stderr.strip()
    assert cli_error == "mac-sim: error: stations: 1 must be 2 to 254"


def test_a_sweep_kept_in_a_database_reads_back_what_the_cli_stored(cli, tmp_path):
    db = tmp_path / "radio.db"
    sweep = {"stations": [3, 5]}
    first = macsim.radio(sweep=sweep, duration="300ms", warmup="0s", db=db, progress=False)
    # The command line reads the same file: every run stored, the same table.
    flags = ["radio", "--sweep", "stations=3,5", "-d", "300ms", "--warmup", "0s"]
    stored = cli(*flags, "--db", db, "--csv")
    assert "2 points (2 read from the database)" in stored.stderr, stored.stderr
    pd.testing.assert_frame_equal(first.table, table(stored.stdout))
    again = macsim.radio(sweep=sweep, duration="300ms", warmup="0s", db=db, progress=False)
    assert again.result == first.result
    runs = macsim.read_campaign(db)
    assert list(runs["stations"]) == [3, 5]
    assert list(runs["delivered_frames"]) == list(first.table["delivered_frames"])
    assert "record_sha256" not in runs.columns
    with pytest.raises(ValueError, match="^db keeps a sweep's runs"):
        macsim.radio(stations=3, db=tmp_path / "one.db")
    csma = tmp_path / "csma.db"
    cli("sweep", "-n", "2", "-d", "1ms", "-r", "1", "--db", csma, "-q", "-o", tmp_path / "out")
    with pytest.raises(ValueError, match="holds results of 'csma-cd"):
        macsim.radio(sweep=sweep, duration="300ms", warmup="0s", db=csma, progress=False)
