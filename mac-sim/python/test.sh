#!/usr/bin/env bash
# The Python package's tests: a virtualenv under target/, the package built from this
# source tree by pip (maturin), and pytest comparing it with the mac-sim binary built by
# the workspace (target/debug/mac-sim, built here if missing; or $MACSIM_CLI).
# Needs python3 (3.9+) with venv and network access to PyPI for maturin, pandas,
# pytest, tqdm, and nbclient, ipykernel and matplotlib for the example notebook.
set -euo pipefail
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

# pip builds the wheel with maturin from the source tree, as a user's
# `pip install ./mac-sim/python` does (release profile, in $TARGET), but without the
# release profile's whole-program optimisation (fat LTO, one codegen unit): the same
# code in a third of the build time. MACSIM_TEST_LTO=1 builds it exactly as a user does.
export CARGO_TARGET_DIR=$TARGET
if [ -z "${MACSIM_TEST_LTO:-}" ]; then
    export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
fi
PATH="$VENV/bin:$PATH" "$VENV/bin/pip" install -q --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./mac-sim/python

if [ -z "${MACSIM_CLI:-}" ]; then
    cargo build -q -p mac-sim
    export MACSIM_CLI=$TARGET/debug/mac-sim
fi

# Run from outside the source tree so that `import macsim` is the installed package.
cd "$TARGET"
export MACSIM_REQUIRE_NOTEBOOK=1
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/mac-sim/python/tests"
