//! Traffic: frame-size draws and the Poisson arrival process.

use backoff_core::uniform::uniform_below;
use rand_core::Rng;

use crate::config::FrameSizes;
use sim_kit::maths;
use sim_kit::time::{PS_PER_SEC, Time};

/// Draws frame sizes (in bits) from a [`FrameSizes`] specification.
#[derive(Clone, Debug)]
pub struct FrameSizer {
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    Fixed(u32),
    Uniform {
        min: u32,
        span: u32,
    },
    /// Cumulative weights and sizes, bits.
    Mix {
        cum: Vec<u32>,
        bits: Vec<u32>,
        total: u32,
    },
}

impl FrameSizer {
    /// A sampler for `sizes` (assumed validated).
    pub fn new(sizes: &FrameSizes) -> Self {
        let kind = match sizes {
            FrameSizes::Fixed(b) => Kind::Fixed(b * 8),
            FrameSizes::Uniform { min, max } => Kind::Uniform {
                min: *min,
                span: max - min + 1,
            },
            FrameSizes::Mix(v) => {
                let mut cum = Vec::with_capacity(v.len());
                let mut bits = Vec::with_capacity(v.len());
                let mut total = 0u32;
                for &(b, w) in v {
                    total = total.saturating_add(w);
                    cum.push(total);
                    bits.push(b * 8);
                }
                Kind::Mix { cum, bits, total }
            }
        };
        Self { kind }
    }

    /// One frame size in bits. A fixed size consumes no randomness.
    #[inline]
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match &self.kind {
            Kind::Fixed(b) => *b,
            Kind::Uniform { min, span } => (min + uniform_below(rng, *span)) * 8,
            Kind::Mix { cum, bits, total } => {
                let x = uniform_below(rng, *total);
                let i = cum.partition_point(|&c| c <= x);
                bits.get(i).copied().unwrap_or(0)
            }
        }
    }
}

/// The superposition of N independent Poisson streams of equal rate: one stream of the
/// total rate whose arrivals are assigned to a uniformly chosen station. It needs one
/// pending event however many stations there are.
#[derive(Clone, Copy, Debug)]
pub struct PoissonArrivals {
    mean_gap_ps: f64,
}

impl PoissonArrivals {
    /// Total offered load `load` (fraction of `bit_rate`) with frames of
    /// `mean_frame_bits` on average.
    pub fn new(load: f64, bit_rate: u64, mean_frame_bits: f64) -> Self {
        let frames_per_sec = load * bit_rate as f64 / mean_frame_bits;
        Self {
            mean_gap_ps: PS_PER_SEC as f64 / frames_per_sec,
        }
    }

    /// The gap to the next arrival, picoseconds (at least 1).
    #[inline]
    pub fn next_gap<R: Rng + ?Sized>(&self, rng: &mut R) -> Time {
        let g = maths::exponential(rng, self.mean_gap_ps).round();
        if g < 1.0 {
            Time::from_ps(1)
        } else if g > 1e18 {
            Time::from_ps(1_000_000_000_000_000_000)
        } else {
            Time::from_ps(g as u64)
        }
    }
}
