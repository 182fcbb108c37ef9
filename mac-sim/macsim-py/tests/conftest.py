"""The command line the package is compared with: $MACSIM_CLI, else the workspace's
debug binary (built by test.sh)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _cli_path() -> str:
    path = os.environ.get("MACSIM_CLI") or str(ROOT / "target" / "debug" / "mac-sim")
    if not os.path.isfile(path):
        pytest.fail(f"the mac-sim binary is missing at {path}: build it (cargo build -p mac-sim) or set MACSIM_CLI")
    return path


@pytest.fixture(scope="session")
def cli():
    """Runs `mac-sim ARGS`, returns the completed process (text)."""
    path = _cli_path()

    def call(*args, check=True):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"mac-sim {' '.join(map(str, args))}: {p.returncode}\n{p.stderr}")
        return p

    return call


@pytest.fixture(scope="session")
def cli_json(cli):
    return lambda *args: json.loads(cli(*args).stdout)
