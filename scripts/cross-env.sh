# shellcheck shell=bash
# Cortex-M cross-build environment, sourced by test.sh and the firmware scripts.
#
# Two ways to build for thumbv7em-none-eabihf, chosen automatically:
#   rustup: the ordinary path, `rustup target add thumbv7em-none-eabihf` done once;
#   debian: no rustup target available (it cannot be downloaded here): Debian's rustc
#           with its library sources, `-Z build-std=core`, linked by ld.lld-19.
# After `cross_setup`, `cross_cargo ARGS...` runs cargo for the target either way.

CROSS_TARGET=thumbv7em-none-eabihf
CROSS_MODE=""
CROSS_DEBIAN_PACKAGES="rustc-web cargo-web rust-web-src lld-19"

cross_die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

# Install Debian packages if missing, as root; otherwise say exactly what is missing.
cross_apt_install() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        cross_die "missing Debian packages: ${missing[*]} (install them with: sudo apt-get install ${missing[*]}${CROSS_APT_HINT:+, $CROSS_APT_HINT})"
    fi
    printf 'installing Debian packages: %s\n' "${missing[*]}"
    # The root suite and the firmware's run side by side: one apt at a time, the other
    # waits for it (flock) instead of failing on dpkg's lock.
    if [ -z "${CROSS_APT_UPDATED:-}" ]; then
        flock /var/lock/beb-apt.lock apt-get update -qq || cross_die "apt-get update failed"
        CROSS_APT_UPDATED=1
    fi
    # APT_NO_RECOMMENDS=1: only what the packages need (e.g. Slurm without its extras).
    DEBIAN_FRONTEND=noninteractive flock /var/lock/beb-apt.lock \
        apt-get install -y -qq ${APT_NO_RECOMMENDS:+--no-install-recommends} "${missing[@]}" >/dev/null \
        || cross_die "apt-get install ${missing[*]} failed"
}

# cross_mode TARGET BUILD_STD LABEL: sets REPLY to `rustup` when rustup has TARGET
# installed, otherwise to `debian` after setting up Debian's toolchain (which builds
# BUILD_STD from source for it).
cross_mode() {
    if command -v rustup >/dev/null 2>&1 \
        && rustup target list --installed 2>/dev/null | grep -qx "$1"; then
        printf '%s: rustup target %s\n' "$3" "$1"
        REPLY=rustup
        return 0
    fi
    printf '%s: rustup target %s not installed; using Debian rustc with -Z build-std=%s\n' "$3" "$1" "$2"
    cross_debian_toolchain "$1"
    REPLY=debian
}

cross_setup() {
    [ -n "$CROSS_MODE" ] && return 0
    cross_mode "$CROSS_TARGET" core "cross build"
    CROSS_MODE=$REPLY
}

# Debian's rustc with its library sources, linked into rustup as the toolchain
# `debian`, for a target that rustup cannot download here ($1, named in the hint).
cross_debian_toolchain() {
    command -v rustup >/dev/null 2>&1 || cross_die "rustup not found; it is needed to select the cross toolchain"
    CROSS_APT_HINT="or use rustup: rustup target add $1" cross_apt_install $CROSS_DEBIAN_PACKAGES
    [ -d /usr/lib/rustlib/src/rust/library ] || cross_die "no library sources at /usr/lib/rustlib/src/rust/library (package rust-web-src)"
    command -v ld.lld-19 >/dev/null 2>&1 || cross_die "ld.lld-19 not found (package lld-19)"
    command -v wasm-ld-19 >/dev/null 2>&1 || cross_die "wasm-ld-19 not found (package lld-19)"
    if ! rustup toolchain list | grep -q '^debian'; then
        rustup toolchain link debian /usr || cross_die "rustup toolchain link debian /usr failed"
    fi
}

# target_cargo MODE TARGET BUILD_STD LINKER TARGET_DIR SUBCOMMAND ARGS...: cargo for
# TARGET, in MODE (`rustup`: the ordinary way; `debian`: Debian's rustc building
# BUILD_STD from source, linked by LINKER, into TARGET_DIR if not empty).
target_cargo() {
    local mode=$1 target=$2 std=$3 linker=$4 dir=$5 sub=$6
    shift 6
    if [ "$mode" = rustup ]; then
        cargo "$sub" --target "$target" "$@"
        return
    fi
    local linker_var
    linker_var="CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$target")_LINKER"
    env RUSTC_BOOTSTRAP=1 "$linker_var=$linker" ${dir:+CARGO_TARGET_DIR="$dir"} \
        cargo +debian "$sub" --target "$target" -Z build-std="$std" "$@"
}

# cross_cargo SUBCOMMAND ARGS...: cargo for the Cortex-M target, in whichever mode was set up.
cross_cargo() {
    cross_setup
    target_cargo "$CROSS_MODE" "$CROSS_TARGET" core ld.lld-19 "" "$@"
}

# WebAssembly (wasm32-unknown-unknown): the I/O-free engine crates and the browser
# page. The same two ways: the rustup target if installed, otherwise Debian's rustc
# with `-Z build-std=std,panic_abort`, linked by wasm-ld-19.
WASM_TARGET=wasm32-unknown-unknown
WASM_MODE=""
WASM_DEBIAN_TARGET_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/wasm-debian"

wasm_setup() {
    [ -n "$WASM_MODE" ] && return 0
    cross_mode "$WASM_TARGET" std,panic_abort "wasm build"
    WASM_MODE=$REPLY
}

# wasm_cargo SUBCOMMAND ARGS...: cargo for wasm32-unknown-unknown, in whichever mode
# was set up. The Debian mode builds into target/wasm-debian, so that its different
# compiler does not invalidate the host builds in target/.
wasm_cargo() {
    wasm_setup
    target_cargo "$WASM_MODE" "$WASM_TARGET" std,panic_abort wasm-ld-19 \
        "${CARGO_TARGET_DIR:-$WASM_DEBIAN_TARGET_DIR}" "$@"
}
