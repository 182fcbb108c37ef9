#!/usr/bin/env bash
# The firmware's tests: the layering (mac-base under both MACs, neither MAC under
# the other), mac-base on the host, serial-mac on the host (scripted line, shared bus of 2..16
# stations, 10^7 corrupted frames), radio-mac on the host (simulated radio channel,
# hidden terminals; the SX1276 binding against a register model), the Cortex-M4F
# builds (QEMU app, bus node, board apps, size probes), the QEMU test (the MAC on an
# emulated Cortex-M4, the test playing the bus), the emulated multi-drop bus (2, 3
# and 5 QEMU nodes in lock step), and the size report with its budgets.
#
# Installs what it needs when it can (Debian packages as root, defmt-print with
# cargo into the machine's tool cache, scripts/tool-cache.sh); otherwise stops and names what is missing.
set -euo pipefail
cd "$(dirname "$0")"
FW=$PWD
ROOT=$(cd .. && pwd)
# shellcheck source=../scripts/cross-env.sh
source "$ROOT/scripts/cross-env.sh"
# One target directory and one release profile for every build: `core` (built from
# source when no rustup target is installed) is compiled once.
export CARGO_TARGET_DIR="$FW/target"
RELEASE="$CARGO_TARGET_DIR/$CROSS_TARGET/release"
DEFMT_PRINT_VERSION=1.2.0
# Budgets from the project's goals.
QEMU_APP_FLASH_BUDGET=16384
BACKOFF_CORE_FLASH_BUDGET=1024
# The radio board's flash with the LoRa time on air, the duty cycle's credits and the
# settings the chip and the MAC share (13 808 bytes, 2026-12-02; 12 228 before them,
# 11 516 before the named channel-access rules) plus 512 bytes.
RADIO_BOARD_FLASH_BUDGET=14320

# shellcheck source=../scripts/steps.sh
source "$ROOT/scripts/steps.sh"
steps_begin
# shellcheck source=../scripts/tool-cache.sh
source "$ROOT/scripts/tool-cache.sh"

# defmt-print: on PATH at the version, or in the machine's tool cache, or built into it now.
find_defmt_print() {
    cached_tool defmt-print "$DEFMT_PRINT_VERSION" defmt-print --locked
    DEFMT_PRINT=$REPLY
}

ram_bytes() { arm-none-eabi-size -A "$1" | awk '$1 ~ /^\.(data|bss|uninit)$/ { s += $2 } END { print s + 0 }'; }
flash_bytes() { arm-none-eabi-size -A "$1" | awk '$1 ~ /^\.(vector_table|text|rodata|data)$/ { s += $2 } END { print s }'; }

step "firmware: formatting and lints (host crates)"
cargo fmt --all --check
cargo clippy -q -p mac-base --all-targets --features defmt -- -D warnings
cargo clippy -q -p serial-mac -p qemu-test -p lockstep -p bus-hub --all-targets --features serial-mac/sim-bus -- -D warnings
cargo clippy -q -p radio-mac -p sx127x-radio --all-targets --features radio-mac/sim-radio,radio-mac/defmt -- -D warnings
# The radio MAC as a board builds it: without the optional `dcf` rule.
cargo clippy -q -p radio-mac -- -D warnings

step "firmware: layering: mac-base depends on no MAC, the radio crates not on serial-mac; no module cycles"
# As cargo resolves them, dev-dependencies included (see ARCHITECTURE.md).
forbid_deps() {
    local crate=$1
    shift
    local deps
    deps=$(cargo tree -q -p "$crate" -e normal,dev --prefix none | awk '{print $1}' | sort -u)
    for bad in "$@"; do
        if grep -qx "$bad" <<<"$deps"; then
            cross_die "$crate depends on $bad"
        fi
    done
    echo "$crate: depends on none of $*"
}
forbid_deps mac-base serial-mac radio-mac
forbid_deps radio-mac serial-mac
forbid_deps sx127x-radio serial-mac
forbid_deps radio-board serial-mac
forbid_deps serial-mac radio-mac
python3 "$ROOT/scripts/module-cycles.py" --workspace "$FW/Cargo.toml"

# The host crates' tests: mac-base (CRC, counters, errors), serial-mac (scripted line,
# shared bus N = 2..16, corrupted frames at 1/100 scale), the lock-step protocol and
# line model, radio-mac (corrupted packets, lost ACKs, retry limit, hidden terminals)
# and the SX127x binding against a register model; then their doc tests. The emulated
# bus (bus-hub's multi_mcu) and the QEMU test need the firmware built: steps below.
HOST_CRATES=(mac-base serial-mac lockstep bus-hub radio-mac sx127x-radio)
packages=()
for crate in "${HOST_CRATES[@]}"; do packages+=(-p "$crate"); done
step "firmware: host tests of ${HOST_CRATES[*]} (nextest profile $TEST_TIER), and their doc tests"
nextest_setup
cargo nextest run --config-file "$ROOT/.config/nextest.toml" --profile "$TEST_TIER" --no-fail-fast \
    "${packages[@]}" -E 'not binary_id(bus-hub::multi_mcu)'
cargo test -q --doc "${packages[@]}"

if heavy_step "firmware: 10^7 corrupted frames through the receiver (optimised build)"; then
    cargo test -q --profile host-release -p serial-mac --test integration corruption:: -- --nocapture
fi

if heavy_step "firmware: documentation builds without warnings"; then
    RUSTDOCFLAGS="-D warnings" cargo doc -q -p mac-base --no-deps --features defmt
    RUSTDOCFLAGS="-D warnings" cargo doc -q -p serial-mac --no-deps --features defmt,sim-bus
    RUSTDOCFLAGS="-D warnings" cargo doc -q -p lockstep -p bus-hub --no-deps
    RUSTDOCFLAGS="-D warnings" cargo doc -q -p radio-mac --no-deps --features defmt,sim-radio
    RUSTDOCFLAGS="-D warnings" cargo doc -q -p radio-mac --no-deps --features defmt,sim-radio,dcf
    RUSTDOCFLAGS="-D warnings" cargo doc -q -p sx127x-radio --no-deps --features defmt
fi

if heavy_step "firmware: tools (QEMU, binutils, defmt-print)"; then
    cross_apt_install qemu-system-arm binutils-arm-none-eabi
    command -v qemu-system-arm >/dev/null 2>&1 || cross_die "qemu-system-arm not found (package qemu-system-arm)"
    command -v arm-none-eabi-size >/dev/null 2>&1 || cross_die "arm-none-eabi-size not found (package binutils-arm-none-eabi)"
    find_defmt_print
fi

if heavy_step "firmware: Cortex-M4F builds"; then
    # The board's HAL turns on cortex-m-rt's `device` feature, which the QEMU app and
    # the size probes must not have: two invocations, same target directory and profile.
    DEFMT_LOG=info cross_cargo build -q --release -p qemu-app -p size-probe
    DEFMT_LOG=info cross_cargo build -q --release -p board-app -p radio-board
fi

if heavy_step "firmware: lints for the Cortex-M crates"; then
    if [ "$CROSS_MODE" = rustup ]; then
        DEFMT_LOG=info cross_cargo clippy -q --release -p qemu-app -p size-probe -- -D warnings
        DEFMT_LOG=info cross_cargo clippy -q --release -p board-app -p radio-board -- -D warnings
    else
        echo "not run: Debian's toolchain has no clippy (with 'rustup target add $CROSS_TARGET' they run here)"
    fi
fi

if heavy_step "firmware: the MAC on a Cortex-M4 under QEMU"; then
    QEMU_APP_ELF="$RELEASE/qemu-app" DEFMT_PRINT="$DEFMT_PRINT" cargo test -q -p qemu-test
fi

if heavy_step "firmware: 2, 3 and 5 emulated MCUs on one modelled line, in lock step (bus-hub)"; then
    # One test at a time: the nodes of one run share the two cores.
    BUS_NODE_ELF="$RELEASE/bus-node" DEFMT_PRINT="$DEFMT_PRINT" \
        cargo test -q -p bus-hub --test multi_mcu -- --nocapture --test-threads=1
fi

if heavy_step "firmware: README.md's bus-hub command, as printed, and the lines it quotes from its output"; then
    # The command is read from the README, so the README cannot drift from it; only its
    # output folder and the path of defmt-print (the one this run found) are replaced.
    readme_cmd=$(awk '/^cargo run -p bus-hub -- /{on=1} on{print} on && !/\\$/{exit}' "$FW/README.md" \
        | sed 's/[[:space:]]*#.*$//')
    [ -n "$readme_cmd" ] || cross_die "firmware/README.md has no 'cargo run -p bus-hub -- ...' command"
    bus_out=$(mktemp -d)
    readme_cmd=${readme_cmd//\/tmp\/bus/$bus_out}
    readme_cmd=${readme_cmd//\~\/.cache\/beb-tools\/defmt-print-$DEFMT_PRINT_VERSION\/bin\/defmt-print/$DEFMT_PRINT}
    (cd "$FW" && eval "$readme_cmd" >/dev/null) || cross_die "firmware/README.md's bus-hub command failed: $readme_cmd"
    for quoted in "transcript.txt:t=00000016 line 7e from node0+node1+node2+node3+node4" \
                  "node0.log:INFO  t=20 tx collision frame=0 attempt=1 byte=1"; do
        grep -qF "${quoted#*:}" "$bus_out/${quoted%%:*}" \
            || cross_die "the bus-hub run of firmware/README.md has no line '${quoted#*:}' in ${quoted%%:*}"
    done
    rm -rf "$bus_out"
    echo "ok: the README's bus-hub command runs as printed"
fi

if heavy_step "firmware: sizes and their budgets (arm-none-eabi-size)"; then
    arm-none-eabi-size "$RELEASE/qemu-app" "$RELEASE/bus-node" "$RELEASE/board-app" "$RELEASE/radio-board" \
        "$RELEASE/without-backoff" "$RELEASE/with-backoff" "$RELEASE/radio-mac"
    qemu_flash=$(flash_bytes "$RELEASE/qemu-app")
    delta=$(( $(flash_bytes "$RELEASE/with-backoff") - $(flash_bytes "$RELEASE/without-backoff") ))
    node_flash=$(flash_bytes "$RELEASE/bus-node")
    printf 'qemu-app flash: %d bytes (budget %d)\n' "$qemu_flash" "$QEMU_APP_FLASH_BUDGET"
    printf 'bus-node flash: %d bytes (budget %d)\n' "$node_flash" "$QEMU_APP_FLASH_BUDGET"
    printf 'backoff-core flash cost (with-backoff - without-backoff): %d bytes (budget %d)\n' "$delta" "$BACKOFF_CORE_FLASH_BUDGET"
    radio_flash=$(( $(flash_bytes "$RELEASE/radio-mac") - $(flash_bytes "$RELEASE/without-backoff") ))
    radio_ram=$(( $(ram_bytes "$RELEASE/radio-mac") - $(ram_bytes "$RELEASE/without-backoff") ))
    printf 'radio-mac on %s (radio-mac probe - without-backoff): %d bytes of flash, %d bytes of static RAM (the MAC value; poll uses two 264-byte packet buffers on the stack)\n' "$CROSS_TARGET" "$radio_flash" "$radio_ram"
    radio_board_flash=$(flash_bytes "$RELEASE/radio-board")
    printf 'radio-board flash: %d bytes (budget %d)\n' "$radio_board_flash" "$RADIO_BOARD_FLASH_BUDGET"
    [ "$qemu_flash" -lt "$QEMU_APP_FLASH_BUDGET" ] || cross_die "qemu-app flash $qemu_flash bytes exceeds $QEMU_APP_FLASH_BUDGET"
    [ "$node_flash" -lt "$QEMU_APP_FLASH_BUDGET" ] || cross_die "bus-node flash $node_flash bytes exceeds $QEMU_APP_FLASH_BUDGET"
    [ "$delta" -lt "$BACKOFF_CORE_FLASH_BUDGET" ] || cross_die "backoff-core adds $delta bytes of flash, over $BACKOFF_CORE_FLASH_BUDGET"
    [ "$radio_board_flash" -le "$RADIO_BOARD_FLASH_BUDGET" ] || cross_die "radio-board flash $radio_board_flash bytes exceeds $RADIO_BOARD_FLASH_BUDGET"
fi

if [ "$TEST_TIER" = quick ]; then
    printf '\nfirmware quick tier passed\n'
else
    printf '\nfirmware tests passed\n'
fi
