//! The test is in `tests/qemu.rs`; it runs the `qemu-app` firmware under QEMU and
//! needs `QEMU_APP_ELF` and `DEFMT_PRINT` set (`firmware/run-tests.sh` sets them).
