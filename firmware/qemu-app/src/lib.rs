//! What the QEMU firmware binaries (`qemu-app`, `bus-node`) for the `mps2-an386`
//! board share: the UART driver, and how they exit (and panic).
#![no_std]

pub mod exit;
pub mod uart;
