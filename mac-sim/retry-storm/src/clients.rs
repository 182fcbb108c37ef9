//! The client side: logical requests in flight and the client population that issues
//! them (open loop, closed loop, or open loop with a cap on active clients, whose
//! arrivals are turned away or wait in line while every client is active).

use std::collections::VecDeque;

use backoff_core::{Deadline, RetryState};
use rand_core::Rng;

use crate::config::{Load, WhenBusy};
use crate::strategy::{Guards, Strategy};
use sim_kit::maths;
use sim_kit::time::{PS_PER_SEC, Time};

/// One logical request, from its first attempt until it succeeds or is given up.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// The client that issued it.
    pub client: u32,
    /// The user it acts for.
    pub user: u32,
    /// When it was issued (its arrival: its total deadline counts from then).
    pub start: Time,
    /// When a client took it up (its arrival, unless it waited for a free capped
    /// client): its latency counts from then.
    pub began: Time,
    /// Attempts so far and the last delay: `backoff-core`'s per-request state.
    pub state: RetryState,
    /// Its total deadline (`Deadline::NONE` without one).
    pub deadline: Deadline,
    /// Its per-attempt timeout, picoseconds.
    pub timeout: Time,
    /// Serial number of its current attempt.
    pub attempt: u64,
    /// Whether that attempt awaits an answer.
    pub outstanding: bool,
    /// Its layer in the call chain: 0 for a client's logical request, `k` for the
    /// call the `k`-th service makes on behalf of an attempt of layer `k − 1`.
    pub layer: u8,
    /// For `layer > 0`: the request whose attempt this call serves ...
    pub parent: u32,
    /// ... and that attempt's serial number.
    pub parent_attempt: u64,
    /// The retry quota's tokens its last retry took (0 before a retry, and without a
    /// quota), given back if it succeeds.
    pub quota_taken: u32,
    /// Whether the attempt due is waiting for the adaptive rate limiter's token.
    pub rate_held: bool,
}

/// The requests in flight, in reusable slots.
#[derive(Debug, Default)]
pub struct Requests {
    slots: Vec<Request>,
    free: Vec<u32>,
}

impl Requests {
    /// Store `r`; returns its slot.
    #[inline]
    pub fn insert(&mut self, r: Request) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = r;
                i
            }
            None => {
                self.slots.push(r);
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// The request in slot `i`.
    #[inline]
    pub fn get(&mut self, i: u32) -> &mut Request {
        &mut self.slots[i as usize]
    }

    /// Free slot `i` (its request ended).
    #[inline]
    pub fn remove(&mut self, i: u32) {
        self.slots[i as usize].outstanding = false;
        self.slots[i as usize].attempt = u64::MAX;
        self.free.push(i);
    }

    /// Requests in flight.
    pub fn in_flight(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Requests of `layer` in flight.
    pub fn in_flight_at(&self, layer: u8) -> usize {
        let mut live = vec![true; self.slots.len()];
        for &i in &self.free {
            live[i as usize] = false;
        }
        self.slots
            .iter()
            .zip(live)
            .filter(|(r, l)| *l && r.layer == layer)
            .count()
    }
}

/// The client processes: their budgets and breakers, and who is idle.
pub struct Population {
    load: Load,
    guards: Vec<Guards>,
    idle: Vec<u32>,
    /// Mean gap between open-loop arrivals, picoseconds.
    gap_mean_ps: f64,
    /// Under a cap whose arrivals wait: the arrival times of those waiting, oldest
    /// first, and the most that may wait (0: arrivals are turned away).
    waiting: VecDeque<Time>,
    wait_limit: usize,
    /// The arrival a client has taken from the line, until it starts it (by client).
    taken: Vec<Option<Time>>,
}

/// What the population does when a logical request ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Nothing (open loop, or a capped client with nobody waiting).
    Nothing,
    /// The client issues its next request at this time (closed loop), or, under a
    /// cap, starts the waiting arrival it has taken ([`Population::taken`]).
    WakeAt(Time),
}

impl Population {
    /// Every client with fresh guards.
    ///
    /// # Errors
    ///
    /// The [`StormError`](crate::error::StormError) of [`Guards::new`] for the strategy.
    ///
    /// Open-loop arrivals come at `peak` times the load's rate (the largest factor of
    /// its load spikes, 1 without), to be thinned by the caller to the factor of the
    /// moment.
    pub fn new(
        load: Load,
        strategy: &Strategy,
        peak: f64,
    ) -> Result<Self, crate::error::StormError> {
        let g = Guards::new(strategy)?;
        let n = load.clients();
        let kept = match (g.is_empty(), strategy.shared) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => n,
        };
        let gap_mean_ps = match load {
            Load::Open { rate_per_s, .. } | Load::Capped { rate_per_s, .. } => {
                PS_PER_SEC as f64 / (rate_per_s * peak)
            }
            Load::Closed { .. } => 0.0,
        };
        let idle = match load {
            Load::Capped { .. } => (0..n).rev().collect(),
            _ => Vec::new(),
        };
        let (wait_limit, taken) = match load {
            Load::Capped {
                when_busy: WhenBusy::Wait { limit },
                ..
            } => (limit as usize, vec![None; n as usize]),
            _ => (0, Vec::new()),
        };
        Ok(Self {
            load,
            guards: vec![g; kept as usize],
            idle,
            gap_mean_ps,
            waiting: VecDeque::new(),
            wait_limit,
            taken,
        })
    }

    /// A client's guards, or `None` when the strategy has none (then nothing is kept
    /// per client, and nothing is looked up). With a shared strategy every client has
    /// the one set.
    #[inline]
    pub fn guards(&mut self, client: u32) -> Option<&mut Guards> {
        match self.guards.len() {
            1 => self.guards.first_mut(),
            _ => self.guards.get_mut(client as usize),
        }
    }

    /// The gap to the next open-loop arrival.
    #[inline]
    pub fn next_gap<R: Rng + ?Sized>(&self, rng: &mut R) -> Time {
        Time::from_ps_f64(maths::exponential(rng, self.gap_mean_ps).round()).max(Time::from_ps(1))
    }

    /// A closed-loop think time, with the load at `factor` times its rate.
    #[inline]
    pub fn think<R: Rng + ?Sized>(&self, rng: &mut R, factor: f64) -> Time {
        match self.load {
            Load::Closed { think_ps, .. } => {
                Time::from_ps_f64(maths::exponential(rng, think_ps.as_ps_f64() / factor).round())
                    .max(Time::from_ps(1))
            }
            _ => Time::ZERO,
        }
    }

    /// Who issues an open-loop arrival: a uniformly drawn client, a free one under a
    /// cap, or `None` when every capped client is active.
    #[inline]
    pub fn take_client<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<u32> {
        match self.load {
            Load::Open { clients, .. } => Some(backoff_core::uniform::uniform_below(rng, clients)),
            Load::Capped { .. } => self.idle.pop(),
            Load::Closed { .. } => None,
        }
    }

    /// An arrival at `now` that found every capped client active joins the waiting
    /// line; `false` when it cannot (arrivals are turned away, or the line is full).
    #[inline]
    pub fn wait(&mut self, now: Time) -> bool {
        if self.waiting.len() < self.wait_limit {
            self.waiting.push_back(now);
            true
        } else {
            false
        }
    }

    /// Arrivals waiting for a free client.
    #[inline]
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The arrival time of the waiting request `client` took when its last one
    /// ended, if it took one; it is then no longer taken.
    #[inline]
    pub fn taken(&mut self, client: u32) -> Option<Time> {
        self.taken.get_mut(client as usize).and_then(Option::take)
    }

    /// A logical request of `client` ended at `now`, with the load at `factor` times
    /// its rate. A capped client with arrivals waiting takes the oldest
    /// ([`Population::taken`]) and starts it at once.
    #[inline]
    pub fn on_end<R: Rng + ?Sized>(
        &mut self,
        now: Time,
        client: u32,
        rng: &mut R,
        factor: f64,
    ) -> Next {
        match self.load {
            Load::Open { .. } => Next::Nothing,
            Load::Capped { .. } => match self.waiting.pop_front() {
                Some(arrived) => {
                    self.taken[client as usize] = Some(arrived);
                    Next::WakeAt(now)
                }
                None => {
                    self.idle.push(client);
                    Next::Nothing
                }
            },
            Load::Closed { .. } => Next::WakeAt(now.saturating_add(self.think(rng, factor))),
        }
    }
}
