"""`max_memory=`: every function that runs a model estimates its work and refuses,
before any run, what would not fit, with the command line's estimate and words."""

import pytest

import macsim

PREFIX = "mac-sim: error: "


def cli_refusal(cli, *args):
    p = cli(*args, "--max-memory", "1M", check=False)
    assert p.returncode == 2, p.stderr
    line = p.stderr.strip()
    assert line.startswith(PREFIX), line
    return (
        line[len(PREFIX):]
        .replace("--max-memory none", 'max_memory="none"')
        .replace("--max-memory", "max_memory")
    )


@pytest.mark.parametrize(
    "call, args",
    [
        (lambda m: macsim.run(stations=100000, duration="1ms", max_memory=m),
         ["run", "-n", "100000", "-d", "1ms"]),
        (lambda m: macsim.sweep(stations=[20000, 40000], replications=1, duration="1ms",
                                threads=2, progress=False, max_memory=m),
         ["sweep", "-n", "20000,40000", "-r", "1", "-d", "1ms", "-j", "2"]),
        (lambda m: macsim.radio(stations=20, duration="10s", max_memory=m),
         ["radio", "-n", "20", "-d", "10s"]),
    ],
)
def test_work_that_cannot_fit_raises_memory_error_as_the_cli_says(cli, call, args):
    with pytest.raises(MemoryError) as e:
        call("1M")
    assert str(e.value) == cli_refusal(cli, *args)
    assert "more than the 1.0 MiB of the max_memory given" in str(e.value)


def test_storm_and_its_sweep_refuse_too():
    with pytest.raises(MemoryError, match="the storm needs about"):
        macsim.storm("pause", max_memory="1M", progress=False)
    with pytest.raises(MemoryError, match="the storm needs about"):
        macsim.storm("pause", sweep=("server.workers", [20, 40]), max_memory="1M", progress=False)


def test_none_lifts_the_check_and_a_bad_size_is_a_value_error():
    assert macsim.run(duration="1ms", max_memory="none").summary["config"]["stations"] == 32
    assert macsim.run(duration="1ms", max_memory="1G").summary["config"]["stations"] == 32
    for bad in ["4X", "", "1.5G"]:
        with pytest.raises(ValueError, match="max_memory: .* is not a size"):
            macsim.run(duration="1ms", max_memory=bad)
