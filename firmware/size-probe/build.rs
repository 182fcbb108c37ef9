//! memory.x for cortex-m-rt, and link.x (no defmt here).
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy("memory.x", out.join("memory.x")).expect("copy memory.x to OUT_DIR");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    if env::var("TARGET").is_ok_and(|t| t.starts_with("thumb")) {
        println!("cargo:rustc-link-arg-bins=-Tlink.x");
    }
}
