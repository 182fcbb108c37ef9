//! A station of the exact model: the events that drive it and the state it keeps
//! between them.

use rand_xorshift::XorShiftRng;
use sim_kit::time::Time;

/// An event of the exact model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The station has a frame and its timer (backoff, gap or deferral) expired: sense
    /// the carrier and transmit, wait or defer.
    Attempt(u32),
    /// The station's transmission (frame or jam) ends. A collision can only move
    /// the end earlier, and then schedules a new one; an event whose time is no
    /// longer the station's end of transmission is stale.
    TxEnd(u32),
    /// A frame arrives (Poisson traffic) at a station chosen uniformly.
    Arrival,
    /// Frame bursting: the station, filling the gap with extension bits since its
    /// last frame, starts the next frame of its burst without deference. Stale if a
    /// collision ended the burst.
    BurstFrame(u32),
    /// The carrier at a station that has just transmitted may have dropped at its
    /// position (IEEE 802.3 gap rules): its blind gap starts then. Stale when the
    /// station no longer listens.
    Wake(u32),
}

/// Where a station is in sending its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// No frame (Poisson traffic only).
    Idle,
    /// A frame, and an `Attempt` scheduled.
    Waiting,
    /// A frame, deferring to a busy medium: until the busy period ends under
    /// [`IfgRule::Restart`], until the carrier drops at the station otherwise.
    Deferred,
    /// Transmitting (frame or jam), a `TxEnd` scheduled.
    Transmitting,
}

/// One station: its frame at the head of the queue, its random numbers and its place
/// in the deference.
#[derive(Clone, Debug)]
pub(super) struct Station {
    pub(super) hol_since: Time,
    pub(super) arrival: Time,
    pub(super) delivered_bits: u64,
    pub(super) rng: XorShiftRng,
    pub(super) collisions: u32,
    pub(super) frame_bits: u32,
    pub(super) state: State,
    /// The end of the gap after the station's own last transmission, timed blind
    /// (IEEE 802.3 gap rules).
    pub(super) own_gap_end: Time,
    /// The station's own transmission has ended but the carrier at its position has
    /// not dropped yet, so that gap has not started.
    pub(super) watch_own: bool,
    /// Waiting for the carrier at its position to drop (one `Wake` pending, or a
    /// place in a transmitter's waiting list).
    pub(super) listening: bool,
    /// Frame bursting: when the burst the station is sending began (the start of its
    /// first transmission), while it holds the medium.
    pub(super) burst_start: Option<Time>,
}
