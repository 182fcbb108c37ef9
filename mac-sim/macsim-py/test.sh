#!/usr/bin/env bash
# The Python package's tests: a virtualenv under target/, the package built from this
# source tree by pip (maturin), and pytest comparing it with the mac-sim binary built by
# the workspace (target/debug/mac-sim, built here if missing; or $MACSIM_CLI).
# Needs python3 (3.9+) with venv and network access to PyPI for maturin, pandas,
# pytest, tqdm, and nbclient, ipykernel and matplotlib for the example notebook.
#
#   mac-sim/macsim-py/test.sh          build, install and test
#   mac-sim/macsim-py/test.sh --venv   only create and fill the virtualenv (test.sh does
#                                   this in the background while the host tests build)
set -euo pipefail
venv_only=
case "${1:-}" in
    "") ;;
    --venv) venv_only=1 ;;
    *) echo "error: unknown argument '$1' (usage: mac-sim/macsim-py/test.sh [--venv])" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
VENV=$TARGET/py-venv

if ! python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    echo "error: python3 3.9 or newer with venv and ensurepip is needed (Debian: python3-venv)" >&2
    exit 1
fi
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check maturin pandas pytest tqdm \
    nbclient nbformat ipykernel matplotlib
[ -z "$venv_only" ] || exit 0

# pip builds the wheel with maturin from the source tree, as a user's
# `pip install ./mac-sim/macsim-py` does, but in the dev profile (MATURIN_PEP517_ARGS), so
# that it reuses most of the simulator crates the host tests compiled (optimised as the
# tests' build is, debug assertions on) instead of compiling everything again in release
# with whole-program optimisation. MACSIM_TEST_RELEASE=1 builds it exactly as a user
# does (release profile, fat LTO).
export CARGO_TARGET_DIR=$TARGET
if [ -z "${MACSIM_TEST_RELEASE:-}" ]; then
    export MATURIN_PEP517_ARGS="--profile dev"
fi
PATH="$VENV/bin:$PATH" "$VENV/bin/pip" install -q --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./mac-sim/macsim-py

if [ -z "${MACSIM_CLI:-}" ]; then
    cargo build -q -p mac-sim
    export MACSIM_CLI=$TARGET/debug/mac-sim
fi

# Run from outside the source tree so that `import macsim` is the installed package.
cd "$TARGET"
export MACSIM_REQUIRE_NOTEBOOK=1
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/mac-sim/macsim-py/tests"
