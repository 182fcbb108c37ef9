"""macsim: the mac-sim CSMA/CD simulator (IEEE 802.3 half duplex, binary exponential
backoff from backoff-core) for notebooks.

    import macsim
    r = macsim.run(stations=64, frames="64:7,594:4,1518:1", load=0.6, seed=1)
    r.summary["utilisation_fraction"], r.per_station      # a dict, a DataFrame
    df = macsim.sweep(stations=[2, 4, 8, 16, 32, 64], load=[0.2, 0.5, 0.8, "saturated"],
                      backoff=["beb", "linear"], replications=5)

Every parameter is one of the simulator's schema (the keys of a scenario file and of
``mac-sim run``'s flags, listed in ``help(macsim.run)``), checked by the simulator
itself: a bad value raises ``ValueError`` with the message the command line prints.
This module only shapes what the native module ``macsim._native`` returns into
dicts and pandas DataFrames; it holds no model logic.
"""

from __future__ import annotations

import json as _json
import operator as _operator
import os as _os
import time as _time
from typing import Any, Callable, Optional, Union

from . import _native
from . import backoff, theory
from ._native import Scenario

__version__: str = _native.__version__

__all__ = [
    "FIELDS",
    "METRICS",
    "RadioResult",
    "RunResult",
    "Scenario",
    "backoff",
    "radio",
    "read_campaign",
    "report_card",
    "run",
    "slotted",
    "storm",
    "StormResult",
    "sweep",
    "theory",
]

#: Every parameter of the schema, in its order: ``(key, value name, help, flag)``.
FIELDS: tuple = tuple(_native.fields())

#: The metrics a sweep estimates, in the order of its columns.
METRICS: tuple = tuple(_native.metrics())


def _frame(columns: dict):
    import pandas as pd  # imported on first use: ``import macsim`` stays fast

    return pd.DataFrame(columns)


def _scenario(scenario: Union[Scenario, str, "_os.PathLike[str]", None]) -> Scenario:
    if scenario is None:
        return Scenario()
    if isinstance(scenario, Scenario):
        return scenario
    return Scenario.from_file(_os.fspath(scenario))


class RunResult:
    """The result of :func:`run`.

    * ``summary``: every metric of ``mac-sim run --json`` (a dict, its keys and
      nesting as the JSON has them);
    * ``scenario``: every parameter of the run, a :class:`Scenario`:
      ``macsim.run(scenario=r.scenario)`` repeats it exactly;
    * ``csv_row``: a one-row DataFrame with the columns of ``mac-sim run --csv``;
    * ``per_station``: with ``per_station=True``, a DataFrame with one row per
      station (``0..N`` along the bus) and the columns of
      ``mac-sim run --csv --per-station``; else ``None``.
    * ``trace``: with ``trace=True``, a DataFrame with one row per step of a
      station, in the model's order, and the columns of
      ``mac-sim run --trace FILE.csv``; else ``None``. Its columns and dtypes:

      ========================  ===========  ==============================================
      ``time_ps``               int64        when it happened, picoseconds (exact)
      ``station``               int64        the station, ``0..N`` along the bus
      ``kind``                  text         ``transmit``, ``defer``, ``collision``,
                                             ``jam_end``, ``success`` or ``drop``
      ``collisions``            int64        collisions of the current frame so far
      ``backoff_slots``         float64      slots drawn after this collision
                                             (``jam_end`` with a retry; else NaN)
      ``frame_bits``            int64        the frame's size, address to FCS, bits
      ``access_delay_ps``       float64      head of queue to end of transmission,
                                             picoseconds (``success``; else NaN)
      ========================  ===========  ==============================================

      The two columns with empty cells in the file are ``float64`` with NaN there,
      as pandas reads the file (exact below 2^53 ps, about 2.5 hours).
    """

    __slots__ = ("summary", "scenario", "_row", "_per_station", "_trace", "_frames")

    def __init__(self, native: dict):
        self.summary: dict = _json.loads(native["json"])
        self.scenario: Scenario = native["scenario"]
        self._row: dict = native["row"]
        self._per_station: Optional[dict] = native["per_station"]
        self._trace: Optional[dict] = native["trace"]
        self._frames: dict = {}

    @property
    def csv_row(self):
        """The run as one DataFrame row, named as ``mac-sim run --csv`` names columns."""
        if "row" not in self._frames:
            self._frames["row"] = _frame(self._row)
        return self._frames["row"]

    @property
    def per_station(self):
        """One row per station (``per_station=True``), else ``None``."""
        if self._per_station is None:
            return None
        if "stations" not in self._frames:
            self._frames["stations"] = _frame(self._per_station)
        return self._frames["stations"]

    @property
    def trace(self):
        """Every step of every station (``trace=True``), else ``None``."""
        if "trace" not in self._frames:
            if self._trace is None:
                return None
            self._frames["trace"] = _trace_frame(self._trace)
            self._trace = None  # the buffers now live in the DataFrame
        return self._frames["trace"]

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<macsim.RunResult {self.scenario!r}: utilisation {s['utilisation_fraction']:.4f}, "
            f"{s['events']} events>"
        )


def _trace_frame(native: dict):
    import numpy as np
    import pandas as pd

    kinds = np.array(native["kinds"], dtype=object)
    columns = {}
    for name, dtype, buffer in native["columns"]:
        values = np.frombuffer(buffer, dtype=dtype)
        columns[name] = kinds[values] if dtype == "uint8" else values
    return pd.DataFrame(columns)


#: What ``progress=`` takes: ``True`` (a tqdm bar if tqdm is installed), ``False``
#: (nothing), or a callable ``progress(done, total)``.
Progress = Union[bool, Callable[[int, int], None]]


_U64_MAX = 2**64 - 1


def _whole(name: str, value: Any, low: int, high: int = _U64_MAX) -> int:
    """``value`` as a whole number from ``low`` to ``high``; ``ValueError`` (a wrong
    value) or ``TypeError`` (not a whole number) naming the parameter otherwise, so
    that a bad argument is told in the parameter's own words."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a whole number, not a bool")
    try:
        v = _operator.index(value)
    except TypeError:
        raise TypeError(
            f"{name}: expected a whole number, not {type(value).__name__}"
        ) from None
    if not low <= v <= high:
        raise ValueError(f"{name}: must be a whole number from {low} to {high}, not {v}")
    return v


def _tqdm_class():
    """tqdm's bar: ``tqdm.auto``'s (a widget in a notebook) where ipywidgets is
    installed, else the text bar, which works everywhere (``tqdm.auto`` would fall
    back to it too, with a warning on every call). ``ImportError`` without tqdm."""
    import importlib.util

    if importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm


def _progress_bar(
    progress: Progress, desc: str, unit: str, delay: float = 0.0, counts: bool = True
) -> Optional[Callable[[int, int], None]]:
    """The callable the native module calls as ``f(done, total)`` while it works:
    ``progress`` itself if it is callable, else a tqdm bar (``tqdm.auto``: a widget
    in a notebook, text on a terminal) when ``progress`` is true and tqdm is
    installed, else nothing. ``delay``: the bar appears only if the call lasts that
    many seconds; ``counts``: show ``done/total`` and the rate (else only the share
    done and the time). ``TypeError`` for anything else than a bool, ``None`` or a
    callable."""
    if callable(progress):
        return progress
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(
            "progress: expected True, False or a callable progress(done, total), "
            f"not {type(progress).__name__}"
        )
    if not progress:
        return None
    bar = None
    start = _time.monotonic()
    extra = {} if counts else {"bar_format": "{l_bar}{bar}| [{elapsed}<{remaining}]"}

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            if total == 0:
                return
            if done >= total and _time.monotonic() - start < delay:
                return  # over before the bar would show: none at all
            # Imported only when a bar is to be shown: a short call imports nothing.
            try:
                tqdm = _tqdm_class()
            except ImportError:
                bar = False
                return
            bar = tqdm(total=total, unit=unit, desc=desc, delay=delay, **extra)
        if bar is False:
            return
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def run(
    scenario: Union[Scenario, str, "_os.PathLike[str]", None] = None,
    *,
    per_station: bool = False,
    trace: bool = False,
    progress: Progress = True,
    max_memory: Optional[str] = None,
    **params: Any,
) -> RunResult:
    """One run of the exact CSMA/CD model, as ``mac-sim run`` does it.

    ``scenario``: a :class:`Scenario` (or the path of a scenario file, TOML or a
    ``mac-sim run --json`` result) under the parameters given; ``per_station``: also
    the results of each station; ``trace``: also every step of every station, as
    ``mac-sim run --trace FILE.csv`` writes them (kept in memory, about 50 bytes a
    step). ``progress``: a tqdm bar (if tqdm is installed) for a run that lasts more
    than a second, ``False`` for none, or a callable ``progress(done, 64)`` called
    as the run goes through the 64 slices of its simulated time. Raises
    ``ValueError`` naming a bad parameter, or one given where it has no effect (as
    ``mac-sim run`` refuses its flag: ``queue_limit`` with saturated traffic,
    ``placement_seed`` unless the placement is random, ``backoff_limit`` with the
    fixed window), and ``KeyboardInterrupt`` on Ctrl-C. ``max_memory``: as
    ``--max-memory``, a size (``"4G"``) the run must fit in besides what the machine
    and its limits give this process, or ``"none"`` for no check; a run that would
    not fit raises ``MemoryError`` with its estimate before it starts.
    """
    s = _scenario(scenario)
    if params:
        s = s.replace(**params)
    bar = _progress_bar(progress, "run", "slice", delay=1.0, counts=False)
    given = [k for k, v in params.items() if v is not None]
    return RunResult(_native.run(s, per_station, trace, bar, given, max_memory))


def sweep(
    scenario: Union[Scenario, str, "_os.PathLike[str]", None] = None,
    *,
    replications: int = 5,
    seed: int = 1,
    threads: Optional[int] = None,
    db: Union[str, "_os.PathLike[str]", None] = None,
    common_random_numbers: bool = False,
    progress: Progress = True,
    per_run: bool = False,
    max_memory: Optional[str] = None,
    **axes: Any,
):
    """Many runs on every core, as ``mac-sim sweep`` runs them: the same points,
    seeds, numbers and results database.

    Each keyword argument is a parameter: a list (or any iterable but a string) is an
    axis, one value is fixed for every point (so ``frames`` mixes in a list are
    written with ``+``: ``frames=["64", "64:7+1518:1"]``). Axes nest as the command
    line nests them (stations innermost, then load, frames, backoff, then the
    schema's order); the stations default to ``1..=256:x2`` when not given.

    Returns a tidy DataFrame, one row per point, with the columns of the sweep's
    ``results.csv``: the parameters, then for each metric its mean over the
    replications and ``<metric>_ci95``, the half-width of its 95 % interval. With
    ``per_run=True``, one row per run instead (the database's ``runs`` columns).

    ``db``: the SQLite results database of ``mac-sim sweep --db`` (runs it holds are
    read, not run; every finished run is stored at once). ``threads``: worker
    threads (default: one per core). ``progress``: a tqdm bar (if tqdm is
    installed), ``False`` for none, or a callable ``progress(runs_done, runs)``.
    Raises ``ValueError`` naming a bad parameter, one that no point reads (as
    ``mac-sim sweep`` refuses its flag) or a database that cannot serve (not a
    results database, damaged, its folder missing or read-only) before anything
    runs, ``OSError`` if storing a run fails, and ``KeyboardInterrupt`` on Ctrl-C (the
    database keeps the runs that finished). ``max_memory``: as in :func:`run`, for the
    whole sweep (its largest runs on every thread at once): ``MemoryError`` before
    any run.
    """
    out = _native.sweep(
        _scenario(scenario),
        replications=_whole("replications", replications, 1, 2**32 - 1),
        seed=_whole("seed", seed, 0),
        common_random_numbers=common_random_numbers,
        threads=None if threads is None else _whole("threads", threads, 1, 2**16),
        db=None if db is None else _os.fspath(db),
        progress=_progress_bar(progress, "sweep", "run"),
        max_memory=max_memory,
        **axes,
    )
    return _frame(out["runs"] if per_run else out["points"])


def read_campaign(path: Union[str, "_os.PathLike[str]"]):
    """The runs of a results database written by ``mac-sim sweep --db``, ``radio
    --db`` or ``storm --db`` (or by ``db=`` here, or merged shards, ``mac-sim merge``)
    as a DataFrame: its ``runs`` table, one row per run (every column but the
    checksum and a storm run's stored record, whose figures are in the columns).

    The file is only read, so it may be on read-only media, and it is verified as
    ``mac-sim sweep --db`` verifies it: SQLite's integrity check, and each run's key
    and checksum. Raises ``FileNotFoundError`` for a missing file and ``ValueError``
    for a file that is not a results database of this version or is damaged (then no
    row is returned: restore a copy)."""
    path = _os.fspath(path)
    if not _os.path.isfile(path):
        raise FileNotFoundError(path)
    runs = _frame(_native.read_campaign(path))
    # A seed is a u64: keep it one even where every seed would fit an int64.
    runs["seed"] = runs["seed"].astype("uint64")
    return runs


def slotted(
    stations: int = 32,
    frame_bytes: int = 1518,
    slot_bits: int = 512,
    successes: int = 1_000_000,
    probability: Optional[float] = None,
    seed: int = 1,
) -> dict:
    """The slotted Metcalfe & Boggs model (``mac-sim slotted``); its result as
    ``mac-sim slotted --json`` writes it."""
    return _json.loads(
        _native.slotted(
            _whole("stations", stations, 0, 2**32 - 1),
            _whole("frame_bytes", frame_bytes, 0, 2**32 - 1),
            _whole("slot_bits", slot_bits, 0, 2**32 - 1),
            _whole("successes", successes, 0),
            probability,
            _whole("seed", seed, 0),
        )
    )


def _parameters_doc() -> str:
    lines = ["Parameters (the schema's keys; units as stated):", ""]
    for key, value, help_text, flag in FIELDS:
        lines.append(f"{key} ({value}; {flag}):")
        lines.extend("    " + h for h in help_text.strip().splitlines())
    return "\n".join(lines)


run.__doc__ = (run.__doc__ or "") + "\n" + _parameters_doc()
sweep.__doc__ = (sweep.__doc__ or "") + "\n" + _parameters_doc()


class StormResult:
    """The result of :func:`storm`, as ``mac-sim storm`` prints it:

    * ``result``: a dict, as ``--json`` (one run of each strategy; with ``seeds``,
      the summaries over the seeds; with ``sweep``, the points);
    * ``summary``: a DataFrame, as ``--csv``: one row per strategy (with ``seeds``,
      means and 95 % intervals; with ``sweep``, one row per strategy and value);
    * ``series``: a DataFrame, as ``--series``: the time series of every strategy
      (with ``seeds``, every seed's, the seed in its column; the means over the
      seeds are in ``result``); ``None`` with ``sweep``.
    """

    __slots__ = ("result", "summary", "series")

    def __init__(self, native: dict):
        import io

        import pandas as pd

        self.result: dict = _json.loads(native["json"])
        self.summary = pd.read_csv(io.StringIO(native["summary_csv"]))
        series = native["series_csv"]
        self.series = None if series is None else pd.read_csv(io.StringIO(series))

    def __repr__(self) -> str:
        rows = "no series" if self.series is None else f"{len(self.series)} series rows"
        return f"<macsim.StormResult: {len(self.summary)} summary rows, {rows}>"


def _sweep_text(sweep: Union[str, tuple, None]) -> Optional[str]:
    """``PARAM=VALUES`` as ``mac-sim storm --sweep`` takes it, from that text or from
    ``(param, values)`` (values: that text, or a list of numbers)."""
    if sweep is None or isinstance(sweep, str):
        return sweep
    if isinstance(sweep, tuple) and len(sweep) == 2 and isinstance(sweep[0], str):
        param, values = sweep
        if not isinstance(values, str):
            values = ",".join(_setting_text(v) for v in values)
        return f"{param}={values}"
    raise ValueError(
        f"sweep: expected 'PARAM=VALUES' or (PARAM, VALUES), not {type(sweep).__name__}"
    )


def _setting_text(value) -> str:
    """A value of ``set`` or of a sweep's list, in the command line's text form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ",".join(_setting_text(v) for v in value)
    raise ValueError(
        f"set: a value is a number, text, a boolean or a list of them, not "
        f"{type(value).__name__}"
    )


def _settings(settings: Optional[dict]) -> Optional[list]:
    """``set``'s keys and values, as ``--set KEY=VALUE`` takes them."""
    if settings is None:
        return None
    if not isinstance(settings, dict):
        raise ValueError(
            f"set: expected a dict of keys (as mac-sim storm --keys names them, "
            f"e.g. {{'server.workers': 8}}), not {type(settings).__name__}"
        )
    out = []
    for key, value in settings.items():
        if not isinstance(key, str):
            raise ValueError(f"set: a key is text, e.g. 'server.workers', not {key!r}")
        out.append((key, _setting_text(value)))
    return out


def storm(
    scenario: Union[str, "_os.PathLike[str]"],
    *,
    set: Optional[dict] = None,
    seed: Optional[int] = None,
    seeds: int = 1,
    sweep: Union[str, tuple, None] = None,
    clients: Optional[int] = None,
    horizon: Optional[str] = None,
    strategies: Optional[list] = None,
    timeouts: Optional[list] = None,
    bin: Optional[str] = None,
    progress: Progress = True,
    db: Union[str, "_os.PathLike[str]", None] = None,
    max_memory: Optional[str] = None,
) -> StormResult:
    """A retry-storm scenario, as ``mac-sim storm --scenario`` runs it: a preset's
    name (``mac-sim storm --list``) or a scenario file of either kind. ``set``: keys
    of the file set to other values, as ``--set`` sets them (``{"server.workers": 8,
    "trigger.end": "40s"}``; the keys as ``mac-sim storm --keys`` lists them, a table's
    name and the key joined by dots). ``seed`` (default: the file's, else 1),
    ``horizon``, ``bin`` and ``timeouts`` set those keys; ``horizon``, ``bin`` and
    each of ``timeouts`` are durations with a unit (``"120s"``); ``strategies``
    replace the scenario's, in the command line's ``--strategy`` form
    (``"exp-full+retries=3"``).

    ``seeds``: run every strategy with the seeds ``seed, seed + 1, ...`` and report
    means with 95 % intervals (``--seeds``, 1 to 1000). ``sweep``: one parameter swept
    (``--sweep``): ``"utilisation=0.5..=0.95:0.05"``, or ``("utilisation", [0.4,
    0.93])``; the parameters are ``utilisation``, ``rate``, ``clients``, ``retries``,
    ``timeout`` (seconds) and every key ``set`` takes (``("server.workers", [10,
    20])``, ``("trigger.end", ["30s", "40s"])``), every strategy at every value over
    ``seeds`` seeds (at least 2 for intervals). ``progress``: a tqdm bar (if tqdm is installed) for a call
    that lasts more than a second, ``False`` for none, or a callable
    ``progress(runs_done, runs)``. ``db``: a results database that keeps a sweep's
    runs (``--db``): a second call with the same arguments reads them back rather
    than running them again, and one interrupted resumes; ``read_campaign`` reads it.

    The contention experiment (``storm("contention")``, ``mac-sim storm --scenario
    contention``, or a file with ``experiment = "contention"``) takes only ``set``,
    ``seed``, ``seeds``, ``clients`` and a ``sweep`` of a key of its file
    (``("contention.base", ["1ms", "5ms"])``: its table at each value, after the
    columns ``param`` and ``value``); its ``series`` is ``None``. Raises ``ValueError`` with the command line's message,
    ``KeyboardInterrupt`` on Ctrl-C, and ``MemoryError`` before any run for work that
    would not fit (``max_memory``, as in :func:`run`)."""
    return StormResult(
        _native.storm(
            _os.fspath(scenario),
            None if seed is None else _whole("seed", seed, 0),
            None if clients is None else _whole("clients", clients, 0, 2**32 - 1),
            horizon,
            strategies,
            timeouts,
            bin,
            _settings(set),
            # Within u32, the range (1 to 1000) is the command line's, in its words.
            _whole("seeds", seeds, 0, 2**32 - 1),
            _sweep_text(sweep),
            _progress_bar(progress, "storm", "run", delay=1.0),
            None if db is None else _os.fspath(db),
            max_memory,
        )
    )


storm.__doc__ = (storm.__doc__ or "") + "\n\n" + _native.storm_keys()


def report_card(
    policy: Union[str, "_os.PathLike[str]"],
    *,
    rate: float = 100.0,
    capacity: float = 200.0,
    timeout: str = "1s",
    seed: int = 1,
):
    """The report card of a retry configuration, as ``mac-sim storm --policy`` makes
    it: ``policy`` is a gRPC service config (JSON with ``methodConfig[].retryPolicy``
    or ``hedgingPolicy`` and ``retryThrottling``), an AWS config profile
    (``retry_mode``, ``max_attempts``) or a file with a strategy on its first line. It
    runs five standard incidents (an outage, a pause, a partial failure, a slow
    server, an overload) at ``rate`` requests per second on a server of ``capacity``,
    with the clients' ``timeout`` (a duration with a unit), each beside the same
    clients without retries, and returns a DataFrame, one row per incident, the
    columns of ``--csv``: the amplification (mean and peak), when the server was
    healthy again (NaN: not within the horizon), success during and after, the
    baseline's, the verdict (``good``, ``risky``, ``fails``) and its reason. Raises
    ``ValueError`` with the command line's message for what it cannot read or
    express, naming the key and its line."""
    import io

    import pandas as pd

    native = _native.report_card(
        _os.fspath(policy),
        float(rate),
        float(capacity),
        timeout,
        _whole("seed", seed, 0),
    )
    return pd.read_csv(io.StringIO(native["csv"]), keep_default_na=False, na_values=[""])


class RadioResult:
    """The result of :func:`radio`, as ``mac-sim radio`` prints it:

    * ``result``: a dict, as ``--json`` (one run; with ``sweep``, the swept keys and
      every point with its values and result);
    * ``table``: a DataFrame, as ``--csv``: one row per run (per sweep point), the
      parameters' columns with their units in the names (``radius_m``,
      ``duration_s``), then the figures; an undefined figure (the delay of no
      delivered frame) is NaN.
    """

    __slots__ = ("result", "table")

    def __init__(self, native: dict):
        import io

        import pandas as pd

        self.result: dict = _json.loads(native["json"])
        self.table = pd.read_csv(io.StringIO(native["csv"]), keep_default_na=False,
                                 na_values=[""])

    def __repr__(self) -> str:
        return f"<macsim.RadioResult: {len(self.table)} rows>"


def radio(
    scenario: Union[str, "_os.PathLike[str]", None] = None,
    *,
    sweep: Optional[dict] = None,
    progress: Progress = True,
    db: Union[str, "_os.PathLike[str]", None] = None,
    max_memory: Optional[str] = None,
    **params: Any,
) -> RadioResult:
    """The radio MAC model (the firmware's CSMA/CA MAC at scale), as ``mac-sim
    radio`` runs it. ``params`` are the keys of ``mac-sim radio --keys``, one value
    each (``stations=10``, ``rule="dcf"``, ``duration="2s"``); ``scenario``, a
    scenario file under them; ``sweep``, keys with a list of values or a range string
    each (``{"stations": [2, 5, 10], "load": "0.1..=0.5:0.1"}``): every combination,
    the first key varying slowest, on every core. ``progress``: a tqdm bar (if tqdm is
    installed) for a sweep that lasts more than a second, ``False`` for none, or a
    callable ``progress(points_done, points)``. ``db``: a results database that keeps
    a sweep's runs (``--db``): a second call reads them back, one interrupted
    resumes; ``read_campaign`` reads it.

    A key that has no effect on any run is refused, as on the command line. Raises
    ``ValueError`` with the command line's message, ``KeyboardInterrupt`` on
    Ctrl-C, and ``MemoryError`` before any run for work that would not fit
    (``max_memory``, as in :func:`run`)."""
    if sweep is not None and not isinstance(sweep, dict):
        raise ValueError(
            f"sweep: expected a dict of keys and lists of values, not {type(sweep).__name__}"
        )
    return RadioResult(
        _native.radio(
            params,
            sweep,
            None if scenario is None else _os.fspath(scenario),
            _progress_bar(progress, "radio", "point", delay=1.0),
            None if db is None else _os.fspath(db),
            max_memory,
        )
    )


radio.__doc__ = (radio.__doc__ or "") + "\n\n" + _native.radio_keys()
