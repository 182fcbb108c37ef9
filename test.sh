#!/usr/bin/env bash
# The project's tests, in two tiers:
#
#   ./test.sh           the whole suite (what CI runs, README.md's test command):
#                       formatting, lints, the layering and module-cycle checks, the
#                       backoff-core feature matrix and its packaging, every host test
#                       (unit, integration, property, CLI, golden-output, doc tests and
#                       the heavy ones), the WebAssembly builds, the Python package, the
#                       browser page, the campaign scripts under GNU parallel and Slurm,
#                       the docs, and beside them the firmware (firmware/run-tests.sh):
#                       its host tests, the Cortex-M4F builds, QEMU, the emulated bus,
#                       the sizes;
#   ./test.sh --quick   the quick tier, for the loop of a change: formatting, lints, the
#                       layering and module-cycle checks, the feature matrix, and the unit,
#                       doc and fast integration tests of every crate of both workspaces.
#
# What is heavy is named once: heavy steps are the `heavy_step` calls below and in
# firmware/run-tests.sh; heavy tests (long statistical checks, tests that need QEMU,
# tshark or built firmware) are the `heavy` filter of .config/nextest.toml. The quick
# tier runs neither and its closing table lists every step it left out; nextest says
# how many tests it skipped.
#
# Both tiers end with a table of each step's wall time. Installs what it needs when it
# can (Debian packages, as root; cargo tools into the machine's tool cache, see
# scripts/tool-cache.sh); otherwise stops and names what is missing. It never skips a
# part silently.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
TEST_TIER=full
case "${1:-}" in
    "") ;;
    --quick) TEST_TIER=quick ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1' (usage: ./test.sh [--quick])" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "error: too many arguments (usage: ./test.sh [--quick])" >&2; exit 2; }
export TEST_TIER

command -v cargo >/dev/null 2>&1 || { echo "error: cargo not found: install Rust from https://rustup.rs" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "error: python3 not found (Debian package python3): scripts/module-cycles.py needs it" >&2; exit 1; }

# shellcheck source=scripts/steps.sh
source "$ROOT/scripts/steps.sh"
steps_begin
# shellcheck source=scripts/cross-env.sh
source "$ROOT/scripts/cross-env.sh"
# shellcheck source=scripts/tool-cache.sh
source "$ROOT/scripts/tool-cache.sh"

# The features every workspace-wide build uses, so that clippy, the tests and the docs
# share one set of compiled dependencies.
FEATURES=backoff-core/std,backoff-core/embedded-hal,backoff-core/embedded-hal-async,backoff-core/tokio

if heavy_step "virtualenvs of the Python package's and the page's tests: filled from PyPI in the background while the host tests build"; then
    # python3-venv provides venv and ensurepip on Debian.
    python3 -c 'import venv, ensurepip' 2>/dev/null || APT_NO_RECOMMENDS=1 cross_apt_install python3-venv
    venvs_log=${CARGO_TARGET_DIR:-$ROOT/target}/venvs.log
    mkdir -p "$(dirname "$venvs_log")"
    steps_background "$venvs_log" bash -c '"$1/mac-sim/macsim-py/test.sh" --venv && "$1/mac-sim/macsim-web/test.sh" --venv' _ "$ROOT"
    venvs=$REPLY
fi
# Waits for the virtualenvs (the Python and browser steps).
venvs_ready() {
    [ -n "${venvs:-}" ] || return 0
    wait "$venvs" || { cat "$venvs_log" >&2; echo "error: filling the virtualenvs failed (log above: $venvs_log)" >&2; exit 1; }
    venvs=
}

step "formatting (cargo fmt --check)"
cargo fmt --all --check

step "lints (clippy, warnings are errors)"
cargo clippy --workspace --all-targets --features "$FEATURES" -- -D warnings

step "layering: the kit and the models do no I/O, the kit knows no model, the storm crates no CSMA/CD code, no module cycles, the doors through each crate's face"
# Which crate may depend on which (see ARCHITECTURE.md), as cargo resolves them.
forbidden_deps() {
    local crate=$1
    shift
    local deps
    deps=$(cargo tree -q -p "$crate" -e normal --prefix none | awk '{print $1}' | sort -u)
    for bad in "$@"; do
        if grep -qx "$bad" <<<"$deps"; then
            echo "error: $crate depends on $bad" >&2
            exit 1
        fi
    done
    echo "$crate: depends on none of $*"
}
# The I/O-free layer (the kit, the CSMA/CD and retry-storm models) knows no host: no
# threads, database, charts or terminal; the host layer knows no model it does not run.
HOST_ONLY="rayon rusqlite plotters indicatif ctrlc signal-hook sim-host csma-cd-host retry-storm-host radio-sim-host"
forbidden_deps sim-kit csma-cd retry-storm radio-sim radio-mac mac-sim backoff-core $HOST_ONLY
forbidden_deps sim-host csma-cd csma-cd-host retry-storm radio-sim radio-mac mac-sim backoff-core
forbidden_deps csma-cd retry-storm mac-sim $HOST_ONLY
forbidden_deps csma-cd-host retry-storm mac-sim
forbidden_deps retry-storm csma-cd csma-cd-host mac-sim $HOST_ONLY
forbidden_deps retry-storm-host csma-cd csma-cd-host mac-sim
# The radio model is I/O-free like the others and knows neither of them; of the
# firmware it runs the radio MAC and nothing else.
forbidden_deps radio-sim csma-cd csma-cd-host retry-storm retry-storm-host mac-sim serial-mac $HOST_ONLY
forbidden_deps radio-sim-host csma-cd csma-cd-host retry-storm retry-storm-host mac-sim serial-mac
# The Python package is a door like the command line: it calls the host crates and
# never the binary, nor its argument parser or signal handlers (Python handles
# signals); no other crate depends on pyo3.
forbidden_deps macsim-py mac-sim clap ctrlc signal-hook
# The browser's engine is the I/O-free layer and nothing else (it must build for
# wasm32-unknown-unknown): no host crate, no binary, no Python.
forbidden_deps macsim-web mac-sim $HOST_ONLY pyo3 clap
for crate in backoff-core sim-kit sim-host csma-cd csma-cd-host retry-storm retry-storm-host radio-sim radio-sim-host mac-sim; do
    forbidden_deps "$crate" pyo3
done
# Every crate of this workspace (the firmware's are checked by firmware/run-tests.sh).
python3 scripts/module-cycles.py --workspace Cargo.toml
# The doors (binary, Python, page) reach each simulation crate through its root face.
python3 scripts/door-imports.py .

step "backoff-core feature matrix"
for features in "" std defmt embedded-hal embedded-hal-async defmt,embedded-hal defmt,embedded-hal-async \
    embedded-hal,embedded-hal-async std,defmt,embedded-hal,embedded-hal-async tower tokio; do
    echo "features: ${features:-(none)}"
    cargo check -q -p backoff-core --no-default-features ${features:+--features "$features"}
done

if heavy_step "tshark, for the tests that open capture files"; then
    if ! command -v tshark >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v debconf-set-selections >/dev/null 2>&1; then
        # wireshark-common asks whether non-root users may capture: answer it first so
        # the installation never waits for a reply.
        echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
    fi
    APT_NO_RECOMMENDS=1 cross_apt_install tshark
    # The capture tests fail instead of skipping if tshark is somehow missing.
    export MAC_SIM_REQUIRE_TSHARK=1
fi

if [ "$TEST_TIER" = quick ]; then
    step "host tests: unit, doc and fast integration tests (nextest profile quick: the heavy filter of .config/nextest.toml left out)"
else
    step "host tests: unit, integration, property, heavy and doc tests (cargo nextest, cargo test --doc)"
fi
nextest_setup
cargo nextest run --workspace --features "$FEATURES" --profile "$TEST_TIER" --no-fail-fast
# nextest runs no doc tests: cargo does.
cargo test -q --workspace --features "$FEATURES" --doc

# The firmware (its own workspace and target directory) runs from here on beside the
# steps below, which often leave a core idle (pytest, Chromium, Slurm, rustdoc, links).
# Its output is printed when it ends; its steps join the table. Its Cortex-M builds
# compile backoff-core for thumbv7em-none-eabihf with no std: the no_std proof.
firmware_log=${CARGO_TARGET_DIR:-$ROOT/target}/firmware-tests.log
steps_background "$firmware_log" "$ROOT/firmware/run-tests.sh"
firmware=$REPLY

if heavy_step "the Python package: pip install ./mac-sim/macsim-py into a virtualenv under target/, pytest against the binary"; then
    venvs_ready
    MACSIM_CLI="$ROOT/target/debug/mac-sim" "$ROOT/mac-sim/macsim-py/test.sh"
fi

if heavy_step "the browser page: the engine and every I/O-free crate (sim-kit, csma-cd, retry-storm, radio-sim, backoff-core) built for wasm32, bindings by wasm-bindgen, served on 127.0.0.1, driven in Chromium by Selenium against the binary"; then
    # Screenshots: target/web-artifacts/.
    APT_NO_RECOMMENDS=1 cross_apt_install chromium chromium-driver
    venvs_ready
    MACSIM_CLI="$ROOT/target/debug/mac-sim" "$ROOT/mac-sim/macsim-web/test.sh"
fi

if heavy_step "backoff-core packages for crates.io (cargo publish --dry-run)"; then
    # Packages the crate as crates.io would receive it and builds it from the package
    # alone. --allow-dirty lets a developer run this with uncommitted edits; CI's clone
    # is clean.
    cargo publish -q --dry-run --allow-dirty -p backoff-core
fi

if heavy_step "campaigns: a sweep killed and resumed, in 4 shards under GNU parallel and under Slurm, merged, equals the sweep in one go; the drivers find mac-sim or fail before submitting, a failed task cancels the merge"; then
    APT_NO_RECOMMENDS=1 cross_apt_install parallel slurmctld slurmd slurm-client munge sqlite3
    timeout 600 "$ROOT/scripts/campaign/test-campaign.sh" "$ROOT/target/debug/mac-sim" \
        || { echo "error: the campaign test failed or took more than 600 s" >&2; exit 1; }
fi

if heavy_step "documentation builds without warnings (the workspace, and backoff-core as docs.rs builds it)"; then
    RUSTDOCFLAGS="-D warnings" cargo doc -q --workspace --no-deps --features "$FEATURES"
    # backoff-core as docs.rs builds it (all features, `--cfg docsrs`): every feature-gated
    # retry loop is in the docs and says which feature it needs. RUSTC_BOOTSTRAP lets a
    # stable rustc take `doc_cfg`, as docs.rs's nightly does.
    RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="--cfg docsrs -D warnings" \
        cargo doc -q -p backoff-core --all-features --no-deps --target-dir "$ROOT/target/docsrs"
    for item in fn.retry_std fn.retry_delay fn.retry_async struct.StdTimer struct.DelayTimer; do
        page="$ROOT/target/docsrs/doc/backoff_core/retry/$item.html"
        grep -q 'Available on <strong>crate feature' "$page" \
            || { echo "error: backoff-core's docs (docs.rs build) do not show retry::${item#*.} with its feature" >&2; exit 1; }
    done
fi

step "the firmware's suite (firmware/run-tests.sh, started after the host tests): waiting for its end"
firmware_status=0
wait "$firmware" || firmware_status=$?
cat "$firmware_log"
[ "$firmware_status" -eq 0 ] \
    || { echo "error: the firmware's suite failed (its output is above, and in $firmware_log)" >&2; exit 1; }

if [ "$TEST_TIER" = quick ]; then
    printf '\nquick tier passed (the steps left out are listed below; ./test.sh runs everything)\n'
else
    printf '\nall tests passed\n'
fi
