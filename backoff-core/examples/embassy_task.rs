//! An embassy-style firmware task that retries a flaky bus transaction with
//! `retry_async`, awaiting the delays through `embedded_hal_async::delay::DelayNs`.
//!
//! On a board, `delay` is `embassy_time::Delay` (which implements the async `DelayNs`)
//! and the task is spawned by `embassy_executor`:
//!
//! ```text
//! #[embassy_executor::task]
//! async fn sensor_task(mut i2c: I2c<'static, Async>, seed: u64) {
//!     let mut rng = XorShiftRng::seed_from_u64(seed);
//!     let reading = read_with_retries(&mut i2c, &mut embassy_time::Delay, &mut rng).await;
//!     ...
//! }
//! ```
//!
//! Everything above `host` below uses `core` only (the file is `#![no_std]`), so it
//! builds for a Cortex-M target unchanged. On the host the `host` module runs the task
//! with a bus that NAKs twice and a delay that counts instead of waiting, polled by a
//! minimal executor (there is nothing to wake: the fake delay is ready at once).
//!
//! Run: `cargo run -p backoff-core --example embassy_task --features embedded-hal-async`
#![no_std]

use backoff_core::retry::{Failure, GaveUp, retry_async};
use backoff_core::{Fraction, Jitter, Policy, Ratio, Schedule, Stop};
use embedded_hal_async::delay::DelayNs;
use rand_core::Rng;

/// A bus that can fail: the part of an I2C or SPI driver the task needs.
trait Bus {
    /// A transient bus error (NAK, arbitration lost) or a permanent one.
    async fn read_register(&mut self, reg: u8) -> Result<u16, Failure<BusError>>;
}

/// What went wrong on the bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BusError {
    Nak,
}

/// 2 ms, 4 ms, 8 ms ... at most 50 ms, ±20 %, five attempts in all: a `const`, so it
/// lives in flash.
const POLICY: Policy = Policy::new(Schedule::exponential_clamped_nanos(
    2_000_000,
    Ratio::TWO,
    50_000_000,
))
.with_jitter(Jitter::Factor(Fraction::ONE_FIFTH))
.with_stop(Stop::NEVER.with_max_retries(4));

/// Read register 0x0F, retrying transient errors under [`POLICY`].
async fn read_with_retries<B: Bus, D: DelayNs, R: Rng>(
    bus: &mut B,
    delay: &mut D,
    rng: &mut R,
) -> Result<u16, GaveUp<BusError>> {
    retry_async(
        &POLICY,
        rng,
        delay,
        async |_attempt| bus.read_register(0x0F).await,
        |_err, _next_delay_ns| {
            // On a board: defmt::warn!("NAK, retrying in {} ns", next_delay_ns)
        },
    )
    .await
}

/// The host harness: a fake bus and delay, and a one-future executor.
mod host {
    extern crate std;

    use core::future::Future;
    use core::pin::pin;
    use core::task::{Context, Poll, Waker};
    use std::println;

    use rand_core::SeedableRng;

    use super::{Bus, BusError, DelayNs, Failure, read_with_retries};

    /// NAKs the first `naks` reads, then answers 0x2A.
    struct FlakyBus {
        naks: u32,
    }

    impl Bus for FlakyBus {
        async fn read_register(&mut self, _reg: u8) -> Result<u16, Failure<BusError>> {
            if self.naks > 0 {
                self.naks -= 1;
                Err(Failure::Transient(BusError::Nak))
            } else {
                Ok(0x2A)
            }
        }
    }

    /// Counts the nanoseconds it was asked to wait.
    struct CountingDelay(u64);

    impl DelayNs for CountingDelay {
        async fn delay_ns(&mut self, ns: u32) {
            self.0 += u64::from(ns);
        }
    }

    /// Poll `fut` until it is ready (it never needs waking here).
    fn block_on<F: Future>(fut: F) -> F::Output {
        let mut fut = pin!(fut);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    pub fn main() {
        let mut bus = FlakyBus { naks: 2 };
        let mut delay = CountingDelay(0);
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
        let value = block_on(read_with_retries(&mut bus, &mut delay, &mut rng));
        println!(
            "read {value:?} after two NAKs, {} µs of backoff",
            delay.0 / 1_000
        );
        assert_eq!(value, Ok(0x2A));
        // 2 ms and 4 ms, each ±20 %.
        assert!((4_800_000..=7_200_000).contains(&delay.0));
    }
}

fn main() {
    host::main();
}
