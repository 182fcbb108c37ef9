#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the feature matrix, host unit,
# integration and doc tests, and the firmware: the no_std cross build for Cortex-M4F,
# the MAC under QEMU, and the size budgets.
# Installs what it needs when it can (Debian packages, as root); otherwise stops and
# names what is missing. It never skips a part silently.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD

# shellcheck source=scripts/steps.sh
source "$ROOT/scripts/steps.sh"
steps_begin

command -v cargo >/dev/null 2>&1 || { echo "error: cargo not found: install Rust from https://rustup.rs" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "error: python3 not found (Debian package python3): scripts/module-cycles.py needs it" >&2; exit 1; }

step "formatting (cargo fmt --check)"
cargo fmt --all --check

step "lints (clippy, warnings are errors)"
cargo clippy --workspace --all-targets --features backoff-core/std,backoff-core/embedded-hal,backoff-core/embedded-hal-async -- -D warnings

step "layering: the kit and the models do no I/O, the kit knows no model, the storm crates no CSMA/CD code, no module cycles"
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
HOST_ONLY="rayon rusqlite plotters indicatif ctrlc signal-hook sim-host csma-cd-host retry-storm-host"
forbidden_deps sim-kit csma-cd retry-storm radio-sim radio-mac mac-sim backoff-core $HOST_ONLY
forbidden_deps sim-host csma-cd csma-cd-host retry-storm radio-sim radio-mac mac-sim backoff-core
forbidden_deps csma-cd retry-storm mac-sim $HOST_ONLY
forbidden_deps csma-cd-host retry-storm mac-sim
forbidden_deps retry-storm csma-cd csma-cd-host mac-sim $HOST_ONLY
forbidden_deps retry-storm-host csma-cd csma-cd-host mac-sim
# The radio model is I/O-free like the others and knows neither of them; of the
# firmware it runs the radio MAC and nothing else.
forbidden_deps radio-sim csma-cd csma-cd-host retry-storm retry-storm-host mac-sim serial-mac $HOST_ONLY
# The Python package is a door like the command line: it calls the host crates and
# never the binary, nor its argument parser or signal handlers (Python handles
# signals); no other crate depends on pyo3.
forbidden_deps macsim-py mac-sim clap ctrlc signal-hook
# The browser's engine is the I/O-free layer and nothing else (it must build for
# wasm32-unknown-unknown): no host crate, no binary, no Python.
forbidden_deps macsim-web mac-sim $HOST_ONLY pyo3 clap
for crate in backoff-core sim-kit sim-host csma-cd csma-cd-host retry-storm retry-storm-host radio-sim mac-sim; do
    forbidden_deps "$crate" pyo3
done
python3 scripts/module-cycles.py backoff-core mac-sim/sim-kit mac-sim/sim-host mac-sim/csma-cd \
    mac-sim/csma-cd-host mac-sim/retry-storm mac-sim/retry-storm-host mac-sim/radio-sim mac-sim mac-sim/python \
    mac-sim/web

step "backoff-core feature matrix"
for features in "" std defmt embedded-hal embedded-hal-async defmt,embedded-hal defmt,embedded-hal-async \
    embedded-hal,embedded-hal-async std,defmt,embedded-hal,embedded-hal-async; do
    echo "features: ${features:-(none)}"
    cargo check -q -p backoff-core --no-default-features ${features:+--features "$features"}
done

# shellcheck source=scripts/cross-env.sh
source "$ROOT/scripts/cross-env.sh"

step "the engine builds for WebAssembly (wasm32-unknown-unknown): sim-kit, csma-cd, retry-storm, radio-sim, backoff-core"
# The I/O-free crates must build for the browser; the first build compiles std from
# source where no rustup target is installed (about 2 minutes on 2 cores).
wasm_cargo build -q -p sim-kit -p csma-cd -p retry-storm -p radio-sim -p backoff-core

step "tshark, for the test that opens the default run's capture file"
if ! command -v tshark >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v debconf-set-selections >/dev/null 2>&1; then
    # wireshark-common asks whether non-root users may capture: answer it first so
    # the installation never waits for a reply.
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
fi
APT_NO_RECOMMENDS=1 cross_apt_install tshark
# The pcap test fails instead of skipping if tshark is somehow missing.
export MAC_SIM_REQUIRE_TSHARK=1

step "host tests (unit, integration, doc)"
cargo test --workspace --features backoff-core/std,backoff-core/embedded-hal,backoff-core/embedded-hal-async

step "the Python package: pip install ./mac-sim/python into a virtualenv under target/, pytest against the binary"
# About 2 to 3 minutes on 2 cores the first time (the virtualenv's packages and the
# release build of the extension, about 100 s), 25 s once built; the tests themselves,
# the example notebook among them, take about 5 s. python3-venv provides venv and
# ensurepip on Debian.
python3 -c 'import venv, ensurepip' 2>/dev/null || APT_NO_RECOMMENDS=1 cross_apt_install python3-venv
MACSIM_CLI="$ROOT/target/debug/mac-sim" "$ROOT/mac-sim/python/test.sh"

step "the browser page: the engine to WebAssembly with wasm-bindgen, served on 127.0.0.1, driven in Chromium by Selenium against the binary"
# The first time: the release wasm build (about 1 minute) and wasm-bindgen-cli of the
# version in Cargo.lock, installed into target/tools (about 8 minutes on 2 cores);
# then the tests take about 15 s. Screenshots: target/web-artifacts/.
APT_NO_RECOMMENDS=1 cross_apt_install chromium chromium-driver
MACSIM_CLI="$ROOT/target/debug/mac-sim" "$ROOT/mac-sim/web/test.sh"

step "backoff-core packages for crates.io (cargo publish --dry-run)"
# Packages the crate as crates.io would receive it and builds it from the package alone
# (a few seconds: it needs the registry index, which the builds above already used).
# --allow-dirty lets a developer run this with uncommitted edits; CI's clone is clean.
cargo publish --dry-run --allow-dirty -p backoff-core

step "campaigns: a sweep killed and resumed, in 4 shards under GNU parallel and under Slurm, merged, equals the sweep in one go; the drivers find mac-sim or fail before submitting, a failed task cancels the merge"
APT_NO_RECOMMENDS=1 cross_apt_install parallel slurmctld slurmd slurm-client munge sqlite3
timeout 600 "$ROOT/scripts/campaign/test-campaign.sh" "$ROOT/target/debug/mac-sim" \
    || { echo "error: the campaign test failed or took more than 600 s" >&2; exit 1; }

step "documentation builds without warnings"
RUSTDOCFLAGS="-D warnings" cargo doc -q --workspace --no-deps --features backoff-core/std,backoff-core/embedded-hal,backoff-core/embedded-hal-async
# backoff-core as docs.rs builds it (all features, `--cfg docsrs`): every feature-gated
# retry loop is in the docs and says which feature it needs. RUSTC_BOOTSTRAP lets a stable
# rustc take `doc_cfg`, as docs.rs's nightly does.
RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="--cfg docsrs -D warnings" \
    cargo doc -q -p backoff-core --all-features --no-deps --target-dir "$ROOT/target/docsrs"
for item in fn.retry_std fn.retry_delay fn.retry_async struct.StdTimer struct.DelayTimer; do
    page="$ROOT/target/docsrs/doc/backoff_core/retry/$item.html"
    grep -q 'Available on <strong>crate feature' "$page" \
        || { echo "error: backoff-core's docs (docs.rs build) do not show retry::${item#*.} with its feature" >&2; exit 1; }
done

# The firmware: serial-mac host tests, Cortex-M4F builds (backoff-core no_std with defmt
# and embedded-hal), QEMU tests, sizes; its steps join this run's table.
# The firmware builds compile backoff-core for thumbv7em-none-eabihf with no std: that
# is the no_std proof, made once with the firmware's profile so `core` is built once.
steps_close ok
"$ROOT/firmware/run-tests.sh"

printf '\nall tests passed\n'
