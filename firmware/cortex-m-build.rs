//! The build script of every Cortex-M binary crate here (board-app, qemu-app,
//! radio-board, size-probe: each names this file as `build` in its Cargo.toml).
//!
//! Puts the crate's `memory.x` where cortex-m-rt's `link.x` finds it and, for a thumb
//! target, links with `link.x`, and with `defmt.x` when the crate depends on `defmt`
//! (its Cargo.toml names it; the size probes do not, so that their sizes hold no
//! logging). Link arguments are given here rather than in RUSTFLAGS, so that every
//! firmware binary shares one build of `core`.
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy("memory.x", out.join("memory.x")).expect("copy memory.x to OUT_DIR");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=Cargo.toml");
    if env::var("TARGET").is_ok_and(|t| t.starts_with("thumb")) {
        println!("cargo:rustc-link-arg-bins=-Tlink.x");
        if depends_on_defmt() {
            println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
        }
    }
}

/// Whether the crate's own Cargo.toml has a dependency named `defmt` (`defmt = ...` or
/// `defmt.workspace = true`; `defmt-rtt` and the like are other crates).
fn depends_on_defmt() -> bool {
    let manifest = fs::read_to_string("Cargo.toml").expect("read the crate's Cargo.toml");
    manifest.lines().any(|line| {
        line.strip_prefix("defmt")
            .is_some_and(|rest| rest.starts_with([' ', '=', '.']))
    })
}
