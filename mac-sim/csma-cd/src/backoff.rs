//! The backoff algorithms a station may run after a collision.
//!
//! BEB is **not** implemented here: its every decision is `backoff_core`'s
//! [`BebConfig::decide`]. The other algorithms are comparison models that draw from
//! `backoff_core::uniform` and use the same discard rule
//! ([`BebConfig::is_excessive`]).
//!
//! ```
//! use csma_cd::backoff::Backoff;
//! use csma_cd::config::BackoffAlgorithm;
//! use backoff_core::{BebConfig, Decision};
//! use rand_core::SeedableRng;
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(3);
//! let lin = Backoff::new(BackoffAlgorithm::Polynomial { degree: 1 }, BebConfig::IEEE_802_3);
//! assert_eq!(lin.window(3), 4); // c + 1
//! assert!(matches!(lin.decide(3, &mut rng), Decision::Retry { slots } if slots < 4));
//! assert_eq!(lin.decide(16, &mut rng), Decision::Discard);
//! ```

use backoff_core::uniform::uniform_below;
use backoff_core::{BebConfig, Decision};
use rand_core::Rng;

use crate::config::BackoffAlgorithm;

/// A backoff algorithm with its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    algorithm: BackoffAlgorithm,
    beb: BebConfig,
}

impl Backoff {
    /// The algorithm under the limits of `beb` (window cap `2^backoffLimit`,
    /// discard after `attemptLimit`).
    pub fn new(algorithm: BackoffAlgorithm, beb: BebConfig) -> Self {
        Self { algorithm, beb }
    }

    /// The limits.
    pub fn beb(&self) -> BebConfig {
        self.beb
    }

    /// The window after `c` collisions: `r` is drawn from `[0, window)`.
    pub fn window(&self, c: u32) -> u64 {
        let cap = self.beb.window(u32::MAX);
        match self.algorithm {
            BackoffAlgorithm::Beb => self.beb.window(c),
            BackoffAlgorithm::Fixed { window } => u64::from(window),
            BackoffAlgorithm::Polynomial { degree } => {
                let mut w: u64 = 1;
                for _ in 0..degree {
                    w = w.saturating_mul(u64::from(c));
                }
                w.saturating_add(1).min(cap)
            }
        }
    }

    /// After `c` collisions of the current frame: retry after `r` slots, or discard.
    #[inline]
    pub fn decide<R: Rng + ?Sized>(&self, c: u32, rng: &mut R) -> Decision {
        match self.algorithm {
            BackoffAlgorithm::Beb => self.beb.decide(c, rng),
            _ => {
                if self.beb.is_excessive(c) {
                    return Decision::Discard;
                }
                let w = u32::try_from(self.window(c)).unwrap_or(u32::MAX);
                Decision::Retry {
                    slots: uniform_below(rng, w),
                }
            }
        }
    }

    /// The mean backoff after `c` collisions, in slots: `(window − 1) / 2`.
    pub fn expected(&self, c: u32) -> f64 {
        (self.window(c) as f64 - 1.0) / 2.0
    }
}
