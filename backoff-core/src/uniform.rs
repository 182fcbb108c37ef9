//! Exact, unbiased integer draws from an injected [`Rng`].
//!
//! The BEB draw is over a power-of-two window, so it takes the top `k` bits of one
//! 32-bit output: no modulo, no bias, one RNG step. Other ranges use Lemire's
//! multiply-and-reject method, which is exactly uniform too: the few outputs that would
//! make some values more likely than others are rejected and drawn again. Each
//! rejection happens with probability below `n / 2^32` (`n / 2^64` for the 64-bit
//! forms), so the expected number of RNG steps is below two for every `n` and
//! practically one for small ranges.

use rand_core::Rng;

/// A uniform integer in `[0, 2^k)`, from the top `k` bits of one `next_u32`.
///
/// `k` above 32 is treated as 32. `k = 0` gives 0 and consumes no randomness.
///
/// ```
/// use backoff_core::uniform::uniform_pow2;
/// use rand_core::SeedableRng;
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
/// for _ in 0..1000 {
///     assert!(uniform_pow2(&mut rng, 3) < 8);
/// }
/// ```
#[inline]
pub fn uniform_pow2<R: Rng + ?Sized>(rng: &mut R, k: u8) -> u32 {
    top_bits(rng, k.min(32))
}

/// [`uniform_pow2`] for `k <= 32`, which the caller guarantees (a [`BebConfig`]
/// exponent never exceeds 32), so no clamp is paid on the BEB path.
///
/// [`BebConfig`]: crate::BebConfig
#[inline]
pub(crate) fn top_bits<R: Rng + ?Sized>(rng: &mut R, k: u8) -> u32 {
    if k == 0 {
        return 0;
    }
    // The top bits of xorshift-family generators are their best bits. The top k bits
    // of x are x · 2^k / 2^32: one shift each way in 64 bits, with no branch and no
    // subtraction on k. For k <= 32 the wrapping shift is the plain shift.
    let wide = u64::from(rng.next_u32()).wrapping_shl(u32::from(k));
    (wide >> 32) as u32
}

/// A uniform integer in `[0, n)`, without modulo bias. `n = 0` gives 0 and consumes no
/// randomness.
///
/// ```
/// use backoff_core::uniform::uniform_below;
/// use rand_core::SeedableRng;
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
/// let mut seen = [false; 6];
/// for _ in 0..1000 {
///     let face = uniform_below(&mut rng, 6);
///     seen[face as usize] = true;
/// }
/// assert!(seen.iter().all(|&s| s));
/// ```
#[inline]
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let n64 = u64::from(n);
    let mut m = u64::from(rng.next_u32()).wrapping_mul(n64);
    let mut low = m as u32;
    if low < n {
        // 2^32 mod n: the number of outputs that must be rejected.
        let threshold = n.wrapping_neg().checked_rem(n).unwrap_or(0);
        while low < threshold {
            m = u64::from(rng.next_u32()).wrapping_mul(n64);
            low = m as u32;
        }
    }
    (m >> 32) as u32
}

/// A uniform integer in `[0, n)` for 64-bit ranges (nanosecond delays), without modulo
/// bias. `n = 0` gives 0 and consumes no randomness.
#[inline]
pub fn uniform_below_u64<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let n128 = u128::from(n);
    let mut m = u128::from(rng.next_u64()).wrapping_mul(n128);
    let mut low = m as u64;
    if low < n {
        let threshold = n.wrapping_neg().checked_rem(n).unwrap_or(0);
        while low < threshold {
            m = u128::from(rng.next_u64()).wrapping_mul(n128);
            low = m as u64;
        }
    }
    (m >> 64) as u64
}

/// A uniform integer in `[lo, hi]`, both ends included, without modulo bias. The bounds
/// may be given in either order.
///
/// ```
/// use backoff_core::uniform::uniform_inclusive_u64;
/// use rand_core::SeedableRng;
/// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
/// let x = uniform_inclusive_u64(&mut rng, 250, 750);
/// assert!((250..=750).contains(&x));
/// ```
#[inline]
pub fn uniform_inclusive_u64<R: Rng + ?Sized>(rng: &mut R, lo: u64, hi: u64) -> u64 {
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let span = hi.saturating_sub(lo);
    match span.checked_add(1) {
        Some(n) => lo.saturating_add(uniform_below_u64(rng, n)),
        None => rng.next_u64(), // the whole u64 range
    }
}
