"""`macsim.sweep` and `macsim.read_campaign` against `mac-sim sweep`."""

import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest

import macsim

AXES = dict(stations=[2, 4], load=[0.3, "saturated"], backoff=["beb", "linear"])
FIXED = dict(duration="50ms", frames="64:7,594:4,1518:1")
FLAGS = ["-n", "2,4", "-l", "0.3,saturated", "-b", "beb,linear", "-d", "50ms",
         "-f", "64:7+594:4+1518:1", "-r", "3", "-s", "7"]


def same_table(got: pd.DataFrame, want: pd.DataFrame):
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want)
    for c in want.columns:
        for a, b in zip(got[c], want[c]):
            if pd.isna(b):
                assert pd.isna(a), c
            elif isinstance(b, (int, float)) and not isinstance(b, bool):
                assert float(a) == pytest.approx(float(b), rel=1e-6, abs=1e-6), c
            else:
                assert str(a) == str(b), c


def test_sweep_equals_cli_results_csv(cli, tmp_path):
    df = macsim.sweep(replications=3, seed=7, progress=False, **AXES, **FIXED)
    cli("sweep", *FLAGS, "-o", tmp_path, "--no-plots", "-q")
    want = pd.read_csv(tmp_path / "results.csv")
    same_table(df, want)
    assert len(df) == 8
    # Stations innermost, then load, then backoff, as the command line nests them.
    assert list(df["stations"]) == [2, 4] * 4
    assert list(df["backoff"]) == ["beb"] * 4 + ["linear"] * 4
    assert df["stations"].dtype == "int64"
    assert df["utilisation_fraction"].dtype == "float64"
    assert df["utilisation_fraction_ci95"].dtype == "float64"
    for m in macsim.METRICS:
        assert m in df.columns and f"{m}_ci95" in df.columns
    # Threads change nothing.
    same_table(macsim.sweep(replications=3, seed=7, progress=False, threads=1, **AXES, **FIXED), df)


def test_sweep_any_schema_field_is_an_axis(cli, tmp_path):
    df = macsim.sweep(stations=3, slot_bits=[512, 1024], velocity=[2e8, 1e8], duration="20ms",
                      replications=2, progress=False)
    assert len(df) == 4
    # Both nest in the schema's order: velocity comes before slot_bits.
    assert list(df["velocity"]) == [2e8, 1e8, 2e8, 1e8]
    assert list(df["slot_bits"]) == [512, 512, 1024, 1024]
    cli("sweep", "-n", "3", "--sweep", "slot_bits=512,1024", "--velocity", "2e8,1e8",
        "-d", "20ms", "-r", "2", "-o", tmp_path, "--no-plots", "-q")
    same_table(df, pd.read_csv(tmp_path / "results.csv"))


def test_sweep_bad_axis_raises_value_error():
    with pytest.raises(ValueError, match=r"^stations: "):
        macsim.sweep(stations=[0, 2], progress=False)
    with pytest.raises(ValueError, match=r"^slot_bits: "):
        macsim.sweep(stations=2, slot_bits=[512, 512], progress=False)
    with pytest.raises(ValueError, match="thread"):
        macsim.sweep(stations=2, threads=0, progress=False)


def test_bad_arguments_name_the_parameter_and_what_it_takes():
    # The function's own arguments, told in their own words before anything runs,
    # not in the conversion layer's ("out of range integral type conversion").
    with pytest.raises(ValueError, match=r"^replications: must be a whole number from 1 "):
        macsim.sweep(stations=2, replications=-1, progress=False)
    with pytest.raises(ValueError, match=r"^seed: must be a whole number from 0 "):
        macsim.sweep(stations=2, seed=-1, progress=False)
    with pytest.raises(TypeError, match=r"^seed: expected a whole number, not float"):
        macsim.sweep(stations=2, seed=1.5, progress=False)
    with pytest.raises(TypeError, match=r"^progress: expected True, False or a callable"):
        macsim.sweep(stations=2, progress="x")
    # A dict or a set has no order of values: refused, not read as its keys.
    with pytest.raises(TypeError, match=r"^stations: expected one value or a list"):
        macsim.sweep(stations={1: 2}, progress=False)
    with pytest.raises(TypeError, match=r"^stations: expected one value or a list"):
        macsim.sweep(stations={2, 3}, progress=False)
    with pytest.raises(ValueError, match=r"^seed: "):
        macsim.storm("pause", seed=-1, progress=False)
    with pytest.raises(ValueError, match=r"^seeds: must be a whole number from 0 "):
        macsim.storm("pause", seeds=-1, progress=False)
    with pytest.raises(ValueError, match=r"^stations: "):
        macsim.slotted(stations=-2)


def test_campaign_written_by_the_cli_loads_and_resumes(cli, tmp_path):
    db = tmp_path / "c.sqlite"
    cli("sweep", *FLAGS, "--db", db, "-o", tmp_path / "out", "--no-plots", "-q")
    runs = macsim.read_campaign(db)
    assert len(runs) == 8 * 3
    for m in macsim.METRICS:
        assert m in runs.columns
    assert {"seed", "replication", "stations", "backoff", "events"} <= set(runs.columns)
    # The same sweep from Python reads every run back from the store ...
    got = macsim.sweep(replications=3, seed=7, db=db, progress=False, per_run=True, **AXES, **FIXED)
    assert len(got) == 24
    assert runs["seed"].dtype == "uint64"
    by_seed = runs.set_index("seed")
    for _, row in got.iterrows():
        stored = by_seed.loc[row["seed"]]
        assert stored["events"] == row["events"]
        assert stored["utilisation_fraction"] == pytest.approx(row["utilisation_fraction"], rel=1e-12)
    assert len(macsim.read_campaign(db)) == 24
    # ... and a grown sweep adds only the new runs.
    macsim.sweep(replications=4, seed=7, db=db, progress=False, **AXES, **FIXED)
    assert len(macsim.read_campaign(db)) == 32
    with pytest.raises(ValueError):
        (tmp_path / "not.db").write_text("hello")
        macsim.read_campaign(tmp_path / "not.db")


def test_read_campaign_verifies_every_run(cli, tmp_path):
    db = tmp_path / "c.sqlite"
    cli("sweep", "-n", "2", "-d", "5ms", "-r", "2", "--db", db, "-o", tmp_path / "out", "--no-plots", "-q")
    assert len(macsim.read_campaign(db)) == 2
    assert "record_sha256" not in macsim.read_campaign(db).columns
    # A number changed in the file: the run no longer matches its checksum.
    con = sqlite3.connect(db)
    con.execute("UPDATE runs SET utilisation_fraction = 0.5 WHERE id = 1")
    con.commit()
    con.close()
    with pytest.raises(ValueError, match="does not match its checksum"):
        macsim.read_campaign(db)
    with pytest.raises(ValueError, match="does not match its checksum"):
        macsim.sweep(stations=2, duration="5ms", replications=2, db=db, progress=False)
    with pytest.raises(FileNotFoundError):
        macsim.read_campaign(tmp_path / "missing.sqlite")


READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" || exit 97\nshift\nexec "$@"'


def test_read_campaign_on_read_only_media(cli, tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    db = media / "c.sqlite"
    cli("sweep", "-n", "2,3", "-d", "5ms", "-r", "2", "--db", db, "-o", tmp_path / "out", "--no-plots", "-q")
    want = macsim.read_campaign(db)
    code = "import sys, macsim; print(len(macsim.read_campaign(sys.argv[1])))"
    os.chmod(db, 0o444)
    os.chmod(media, 0o555)
    try:
        cmd = [sys.executable, "-c", code, str(db)]
        if os.access(media, os.W_OK):
            # Root: permissions do not stop it; a read-only mount of its own does.
            cmd = ["unshare", "--mount", "sh", "-c", READ_ONLY, "sh", str(media), *cmd]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except FileNotFoundError:
            pytest.skip("no unshare to make a read-only folder")
        if p.returncode == 97:
            pytest.skip("no read-only mount can be made here")
        assert p.returncode == 0, p.stderr
        assert p.stdout.strip() == str(len(want))
        assert sorted(os.listdir(media)) == ["c.sqlite"]
    finally:
        os.chmod(media, 0o755)
        os.chmod(db, 0o644)


def test_progress_bar_with_tqdm(capsys):
    pytest.importorskip("tqdm")
    macsim.sweep(stations=[2, 3], duration="5ms", replications=2, progress=True)
    assert "sweep" in capsys.readouterr().err


SCRIPT = textwrap.dedent(
    """
    import signal, sys, macsim
    # A child started in the background may inherit SIGINT ignored: take Python's own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        macsim.sweep(stations=list(range(2, 200)), load="saturated", duration="2s",
                     replications=3, db=sys.argv[1], progress=False, threads=2)
    except KeyboardInterrupt as e:
        print("KeyboardInterrupt", flush=True)
        print(e, flush=True)
        sys.exit(130)
    print("finished", flush=True)
    """
)


def stored_runs(db) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_sigint_or_sigterm_during_a_sweep_raises_keyboard_interrupt_promptly(tmp_path, sig):
    """Ctrl-C, and a `kill` (SIGTERM, handled as Ctrl-C while the sweep goes), stop
    the sweep within 2 s with a KeyboardInterrupt that says what the database kept
    and how to resume."""
    db = tmp_path / "long.sqlite"
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, str(db)], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while stored_runs(db) < 2:
        assert p.poll() is None, "the sweep ended before it was interrupted"
        assert time.monotonic() < deadline, "no run finished in 120 s"
        time.sleep(0.05)
    t0 = time.monotonic()
    p.send_signal(sig)
    out, _ = p.communicate(timeout=30)
    latency = time.monotonic() - t0
    assert p.returncode == 130, out
    first, message = out.strip().split("\n", 1)
    assert first == "KeyboardInterrupt"
    assert re.fullmatch(
        r"sweep interrupted after \d+ of 594 runs; .*long\.sqlite keeps every finished run: "
        r"call sweep again with the same arguments to resume", message), message
    print(f"KeyboardInterrupt {latency * 1000:.0f} ms after {sig.name}")
    # Generous on a loaded 2-core machine; about 0.1 s when it is idle.
    assert latency < 2.0
    kept = stored_runs(db)
    assert kept >= 2
    runs = macsim.read_campaign(db)
    assert len(runs) == kept


RUN_SCRIPT = textwrap.dedent(
    """
    import signal, sys, macsim
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print("start", flush=True)
    try:
        macsim.run(stations=256, duration="1000s")
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
        sys.exit(130)
    """
)


def test_sigint_during_a_run_raises_keyboard_interrupt():
    p = subprocess.Popen([sys.executable, "-c", RUN_SCRIPT], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(0.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 130 and out.strip() == "KeyboardInterrupt"
    print(f"run: KeyboardInterrupt {(time.monotonic() - t0) * 1000:.0f} ms after SIGINT")


def test_sweep_progress_callable_reaches_the_total():
    calls = []
    macsim.sweep(stations=[2, 3], duration="5ms", replications=2,
                 progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (4, 4)
    done = [d for d, _ in calls]
    assert done == sorted(set(done))
