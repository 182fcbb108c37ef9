#!/usr/bin/env bash
# Builds the page's engine: macsim-web for wasm32-unknown-unknown (release), then
# its JavaScript bindings with wasm-bindgen into www/pkg/. The folder www/ is then
# the whole page: serve it with any static file server (see serve.sh).
#
# The wasm target comes from rustup when installed (rustup target add
# wasm32-unknown-unknown); otherwise Debian's rustc builds std from source (see
# scripts/cross-env.sh). wasm-bindgen (the command) must be the version of the
# wasm-bindgen crate in Cargo.lock: taken from PATH if it is, else from
# the machine's tool cache, else built into it with cargo (about 8 minutes, once per
# machine; scripts/tool-cache.sh).
set -euo pipefail
WEB=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$WEB/../.." && pwd)
cd "$ROOT"
# shellcheck source=../../scripts/cross-env.sh
source "$ROOT/scripts/cross-env.sh"
# shellcheck source=../../scripts/tool-cache.sh
source "$ROOT/scripts/tool-cache.sh"

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || cross_die "no wasm-bindgen in Cargo.lock"

wasm_setup
# The same cargo run builds every I/O-free crate for wasm32 on its own too (the kit, the
# models, backoff-core: what the page's views may use), the suite's check that they
# build for the browser; one run compiles std once for all of them, and the page's
# engine comes out byte for byte as when built alone.
wasm_cargo build --release -q -p macsim-web \
    -p sim-kit -p csma-cd -p retry-storm -p radio-sim -p backoff-core
if [ "$WASM_MODE" = debian ]; then
    dir=${CARGO_TARGET_DIR:-$WASM_DEBIAN_TARGET_DIR}
else
    dir=${CARGO_TARGET_DIR:-$ROOT/target}
fi
wasm="$dir/wasm32-unknown-unknown/release/macsim_web.wasm"
[ -f "$wasm" ] || cross_die "the build wrote no $wasm"

# Not --locked: the CLI's lock file names crate versions a registry mirror may lack;
# the version of the CLI itself is pinned, which is what must match.
cached_tool wasm-bindgen-cli "$version" wasm-bindgen
bindgen=$REPLY

# Write the bindings beside the final folder, then swap, so www/pkg is never half
# written.
tmp=$(mktemp -d "$WEB/www/.pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bindgen" --target web --no-typescript --out-dir "$tmp" "$wasm"
rm -rf "$WEB/www/pkg.old"
[ -d "$WEB/www/pkg" ] && mv "$WEB/www/pkg" "$WEB/www/pkg.old"
mv "$tmp" "$WEB/www/pkg"
rm -rf "$WEB/www/pkg.old"
trap - EXIT
printf 'built %s (%s bytes, %s gzipped)\n' "www/pkg/macsim_web_bg.wasm" \
    "$(wc -c <"$WEB/www/pkg/macsim_web_bg.wasm")" "$(gzip -9 -c "$WEB/www/pkg/macsim_web_bg.wasm" | wc -c)"
