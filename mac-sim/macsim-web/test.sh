#!/usr/bin/env bash
# The page's tests: build it (build.sh), serve www/ on 127.0.0.1 and drive it in
# Debian's Chromium with Selenium (browser-tests/), comparing what it shows with the mac-sim
# binary (target/debug/mac-sim, built here if missing; or $MACSIM_CLI).
# Needs chromium and chromium-driver (Debian packages; test.sh installs them as
# root), python3 with venv, and PyPI for selenium and pytest. Screenshots and the
# measured figures go to target/web-artifacts/.
#
#   mac-sim/macsim-web/test.sh          build the page and test it
#   mac-sim/macsim-web/test.sh --venv   only create and fill the virtualenv (test.sh does this
#                                in the background while the host tests build)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
VENV=$TARGET/web-venv
venv_only=
case "${1:-}" in
    "") ;;
    --venv) venv_only=1 ;;
    *) echo "error: unknown argument '$1' (usage: mac-sim/macsim-web/test.sh [--venv])" >&2; exit 2 ;;
esac

python3 -c 'import venv, ensurepip' 2>/dev/null \
    || { echo "error: python3 with venv and ensurepip is needed (Debian: python3-venv)" >&2; exit 1; }
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check selenium pytest
[ -z "$venv_only" ] || exit 0

for tool in chromium chromedriver; do
    command -v "$tool" >/dev/null 2>&1 \
        || { echo "error: $tool not found (Debian packages: chromium chromium-driver)" >&2; exit 1; }
done

"$ROOT/mac-sim/macsim-web/build.sh"

if [ -z "${MACSIM_CLI:-}" ]; then
    cargo build -q -p mac-sim
    export MACSIM_CLI=$TARGET/debug/mac-sim
fi
# The tests run in another folder: a relative path is made absolute here.
MACSIM_CLI=$(realpath "$MACSIM_CLI")
export MACSIM_CLI
export MACSIM_WEB_ARTIFACTS=$TARGET/web-artifacts
export CHROMIUM=$(command -v chromium) CHROMEDRIVER=$(command -v chromedriver)
cd "$ROOT/mac-sim/macsim-web/browser-tests"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider .
echo "screenshots and figures: $MACSIM_WEB_ARTIFACTS"
