//! The largest runs the storm model accepts, so that no parameter can make a run
//! take hours or exhaust memory.

/// Clients the model keeps at most (each may hold a few hundred bytes of budgets and
/// breakers).
pub const MAX_CLIENTS: u32 = 1_000_000;

/// Logical requests a run may be expected to issue at most (rate × horizon, or
/// clients × horizon / think time), so that no parameter can make a run take hours or
/// exhaust memory.
pub const MAX_REQUESTS: f64 = 5e7;

/// Services a call chain may have at most (each adds a layer of requests in flight).
pub const MAX_CHAIN: usize = 8;

/// The largest σ of a lognormal service time (its p99 is then ~ 12 × the mean).
pub const MAX_SIGMA: f64 = 3.0;
/// Arrivals a capped load may keep waiting for a free client at most (each holds its
/// arrival time).
pub const MAX_WAITING: u32 = 10_000_000;
