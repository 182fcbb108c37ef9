//! Drivers shared by the QEMU firmware binaries (`qemu-app`, `bus-node`) for the
//! `mps2-an386` board.
#![no_std]

pub mod uart;
