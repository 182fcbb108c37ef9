# shellcheck shell=bash
# The command-line tools the tests install with `cargo install` (wasm-bindgen-cli of the
# version in Cargo.lock, defmt-print, cargo-nextest), built once per machine into one
# cache outside any clone, keyed by crate and version, so every clone reuses them:
#
#   ${BEB_TOOL_CACHE:-${XDG_CACHE_HOME:-~/.cache}/beb-tools}/CRATE-VERSION/bin/BIN
#
# A copy of the right version on PATH is used as it is. Sourced by test.sh, the
# firmware's run-tests.sh and mac-sim/macsim-web/build.sh. Removing the folder is always safe:
# the next run builds what it needs again. Needs scripts/cross-env.sh sourced first
# (cross_die).

TOOL_CACHE=${BEB_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/beb-tools}

# cached_tool CRATE VERSION BIN [CARGO-INSTALL-ARGS...]: sets REPLY to the path of the
# command BIN of CRATE at VERSION: from PATH if that one says it is VERSION, else from the
# cache, built into it now if missing. The build goes to a temporary folder that is
# renamed into place when whole, so a failed or interrupted build, or two clones building
# at once, never leave a half-installed tool. Fails (exit 1) with the command to run by
# hand when cargo install fails.
cached_tool() {
    local crate=$1 version=$2 bin=$3
    shift 3
    if command -v "$bin" >/dev/null 2>&1 \
        && "$bin" --version 2>/dev/null | head -n 1 | grep -qw -- "$version"; then
        REPLY=$(command -v "$bin")
        return 0
    fi
    local dir="$TOOL_CACHE/$crate-$version"
    if [ -x "$dir/bin/$bin" ]; then
        REPLY=$dir/bin/$bin
        return 0
    fi
    mkdir -p "$TOOL_CACHE" || cross_die "cannot create the tool cache $TOOL_CACHE"
    local tmp
    tmp=$(mktemp -d "$TOOL_CACHE/.$crate-$version.XXXXXX")
    printf 'installing %s %s into %s (once per machine; a few minutes on 2 cores)\n' "$crate" "$version" "$dir"
    if ! cargo install -q "$crate" --version "$version" "$@" --root "$tmp"; then
        rm -rf "$tmp"
        cross_die "cargo install $crate --version $version failed; install it yourself (cargo install $crate --version $version $*)"
    fi
    # Another clone may have finished the same tool meanwhile: keep the first.
    mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
    REPLY=$dir/bin/$bin
}

# The test runner: cargo-nextest, from PATH when cargo finds it there (the minimum
# version is nextest-version in .config/nextest.toml, which nextest itself enforces),
# else built into the cache and put first on PATH.
NEXTEST_VERSION=0.9.143
nextest_setup() {
    cargo nextest --version >/dev/null 2>&1 && return 0
    cached_tool cargo-nextest "$NEXTEST_VERSION" cargo-nextest --locked
    PATH="$(dirname "$REPLY"):$PATH"
    export PATH
}
