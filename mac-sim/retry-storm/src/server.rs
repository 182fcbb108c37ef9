//! The server: workers with a service-time distribution and a FIFO queue, or (without
//! a worker limit) a pure latency model; optionally a load-dependent latency above a
//! concurrency limit; deadline propagation.
//!
//! Without deadline propagation the server works on every request it accepted, also
//! those whose client gave up long ago. With it, a queued request whose deadline has
//! passed is dropped when a worker would take it, and work in progress stops at the
//! deadline.
//!
//! An error answer (a failing trigger) is given after the server's `error_ps` without
//! a worker, unless the trigger or the server sets error work
//! ([`ErrorWork`]): then it queues for a worker like any request, holds it for that
//! work, and answers the error. With a round trip (`rtt_ps`), an attempt reaches the
//! server half of it after it is sent ([`Server::send`]), and its answer reaches the
//! caller the other half after the server gives it ([`Server::back`]).

use std::collections::VecDeque;

use rand_xorshift::XorShiftRng;

use crate::config::{ErrorWork, ServerConfig, Slowdown};
use crate::shedding::Bucket;
use crate::triggers::{Fate, Triggers};
use sim_kit::engine::EventQueue;
use sim_kit::maths;
use sim_kit::time::Time;

/// How the server answered an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Served.
    Success,
    /// A failing trigger answered with an error.
    Error,
    /// Stopped at its propagated deadline.
    Cancelled,
    /// Rejected at once by load shedding or the rate limiter, with Retry-After.
    Rejected,
}

/// One attempt inside the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The logical request (client side).
    pub req: u32,
    /// The attempt's serial number.
    pub attempt: u64,
    /// The user (for the shard trigger).
    pub user: u32,
    /// The propagated deadline (`Time::MAX` when none).
    pub deadline: Time,
}

/// What the engine must deliver to the server: a job's end.
pub trait ServerEvent {
    /// The event for `job` ending with `outcome`.
    fn done(job: u32, outcome: Outcome) -> Self;
    /// The event that resumes a paused server.
    fn resume() -> Self;
    /// The event for `job` reaching the server (after half the round trip).
    fn reach(job: u32) -> Self;
}

/// Counters of the server's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerCounts {
    /// Attempts that reached it.
    pub arrived: u64,
    /// Answered with an error by a trigger.
    pub errors: u64,
    /// Of those, answered after their error work on a worker (errors stopped at the
    /// deadline or dropped unstarted are counted there instead).
    pub error_work: u64,
    /// Served to the end.
    pub served: u64,
    /// Stopped at the deadline while in service.
    pub cancelled: u64,
    /// Dropped from the queue, deadline passed, without any work.
    pub expired: u64,
    /// Rejected at once by load shedding or the rate limiter.
    pub rejected: u64,
}

/// The server's state.
pub struct Server {
    cfg: ServerConfig,
    ln_factor: f64,
    triggers: Triggers,
    bucket: Option<Bucket>,
    jobs: Vec<Job>,
    /// Per job: the error work it does instead of its service (`None`: served).
    errs: Vec<Option<ErrorWork>>,
    free: Vec<u32>,
    queue: VecDeque<u32>,
    busy: u32,
    conc: u32,
    rng: XorShiftRng,
    counts: ServerCounts,
}

impl Server {
    /// An idle server.
    pub fn new(cfg: ServerConfig, triggers: Triggers, rng: XorShiftRng) -> Self {
        let ln_factor = cfg.slowdown.map_or(0.0, |s| maths::ln(s.factor));
        Self {
            bucket: cfg.rate_limit.map(Bucket::new),
            cfg,
            ln_factor,
            triggers,
            jobs: Vec::new(),
            errs: Vec::new(),
            free: Vec::new(),
            queue: VecDeque::new(),
            busy: 0,
            conc: 0,
            rng,
            counts: ServerCounts::default(),
        }
    }

    /// Requests in the server: queued plus in service (error answers excluded).
    #[inline]
    pub fn concurrency(&self) -> u32 {
        self.conc
    }

    /// Requests waiting for a worker.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// The counters.
    pub fn counts(&self) -> ServerCounts {
        self.counts
    }

    /// The job with this id.
    #[inline]
    pub fn job(&self, id: u32) -> Job {
        self.jobs[id as usize]
    }

    /// Schedule the ends of the pauses and capacity losses, when waiting work can
    /// start again.
    pub fn schedule_resume<E: ServerEvent>(&self, q: &mut EventQueue<E>) {
        for end in self.triggers.resumes() {
            q.schedule(end, E::resume());
        }
    }

    /// An attempt is sent to the server at `now`: it arrives at once, or half the
    /// round trip later.
    pub fn send<E: ServerEvent>(&mut self, now: Time, job: Job, q: &mut EventQueue<E>) {
        let out = self.outbound();
        if out.is_zero() {
            self.arrive(now, job, q);
        } else {
            let id = self.store(job);
            q.schedule(now + out, E::reach(id));
        }
    }

    /// How long an attempt takes to reach the server: half the round trip (zero
    /// without one).
    #[inline]
    pub fn outbound(&self) -> Time {
        self.cfg.rtt_ps / 2
    }

    /// How long an answer takes to reach its caller: the other half of the round
    /// trip (zero without one).
    #[inline]
    pub fn back(&self) -> Time {
        self.cfg.rtt_ps - self.cfg.rtt_ps / 2
    }

    /// An attempt arrives at `now`.
    pub fn arrive<E: ServerEvent>(&mut self, now: Time, job: Job, q: &mut EventQueue<E>) {
        let id = self.store(job);
        self.admit(now, id, q);
    }

    /// The attempt sent as job `id` reaches the server at `now`.
    pub fn reach<E: ServerEvent>(&mut self, now: Time, id: u32, q: &mut EventQueue<E>) {
        self.admit(now, id, q);
    }

    /// Keep `job` under a free id.
    fn store(&mut self, job: Job) -> u32 {
        match self.free.pop() {
            Some(id) => {
                self.jobs[id as usize] = job;
                id
            }
            None => {
                self.jobs.push(job);
                self.errs.push(None);
                (self.jobs.len() - 1) as u32
            }
        }
    }

    /// Job `id` is at the server at `now`: answered with an error, rejected, started
    /// or queued.
    fn admit<E: ServerEvent>(&mut self, now: Time, id: u32, q: &mut EventQueue<E>) {
        self.counts.arrived += 1;
        let user = self.jobs[id as usize].user;
        let (fail, err) = match self.triggers.fate(now, user, &mut self.rng) {
            Fate::Serve => (false, None),
            Fate::Fail(own) => (true, own.or(self.cfg.error_work)),
        };
        self.errs[id as usize] = err;
        if fail && err.is_none() {
            self.counts.errors += 1;
            q.schedule(now + self.cfg.error_ps, E::done(id, Outcome::Error));
            return;
        }
        let shed = match self.cfg.queue_limit {
            Some(limit) => self.queue.len() >= limit as usize && !self.can_start(now),
            None => false,
        };
        if shed || self.bucket.as_mut().is_some_and(|b| !b.admit(now)) {
            self.counts.rejected += 1;
            q.schedule(now + self.cfg.error_ps, E::done(id, Outcome::Rejected));
            return;
        }
        self.counts.errors += u64::from(fail);
        self.conc += 1;
        match self.cfg.workers {
            None => self.start(now, id, q),
            Some(w) if self.busy < self.triggers.workers(now, w) && !self.triggers.paused(now) => {
                self.start(now, id, q)
            }
            Some(_) => self.queue.push_back(id),
        }
    }

    /// Whether a worker is free for a new attempt at `now`.
    #[inline]
    fn can_start(&self, now: Time) -> bool {
        match self.cfg.workers {
            None => true,
            Some(w) => self.busy < self.triggers.workers(now, w) && !self.triggers.paused(now),
        }
    }

    fn service_ps(&mut self) -> Time {
        let base = self.cfg.service.sample(&mut self.rng);
        match self.cfg.slowdown {
            Some(s) if self.conc > s.limit => slowed(base, s, self.ln_factor, self.conc),
            _ => base,
        }
    }

    fn start<E: ServerEvent>(&mut self, now: Time, id: u32, q: &mut EventQueue<E>) {
        self.busy += 1;
        let (work, outcome) = match self.errs[id as usize] {
            None => (self.service_ps(), Outcome::Success),
            Some(ErrorWork::Time(t)) => (t, Outcome::Error),
            Some(ErrorWork::Fraction(f)) => {
                let t = Time::from_ps_f64((self.service_ps().as_ps_f64() * f).round());
                (t.max(Time::from_ps(1)), Outcome::Error)
            }
        };
        let end = self.triggers.frozen_end(now, work);
        let deadline = self.jobs[id as usize].deadline;
        if deadline < end {
            q.schedule(deadline.max(now), E::done(id, Outcome::Cancelled));
        } else {
            q.schedule(end, E::done(id, outcome));
        }
    }

    /// A job ends at `now`; returns it (its id is free again). Starts queued work.
    pub fn done<E: ServerEvent>(
        &mut self,
        now: Time,
        id: u32,
        outcome: Outcome,
        q: &mut EventQueue<E>,
    ) -> Job {
        let job = self.jobs[id as usize];
        self.free.push(id);
        match outcome {
            Outcome::Error if self.errs[id as usize].is_none() => return job,
            Outcome::Rejected => return job,
            Outcome::Error => self.counts.error_work += 1,
            Outcome::Success => self.counts.served += 1,
            Outcome::Cancelled => self.counts.cancelled += 1,
        }
        self.conc -= 1;
        self.busy -= 1;
        self.start_queued(now, q);
        job
    }

    /// A pause or a capacity loss is over: start what waits.
    pub fn resume<E: ServerEvent>(&mut self, now: Time, q: &mut EventQueue<E>) {
        self.start_queued(now, q);
    }

    fn start_queued<E: ServerEvent>(&mut self, now: Time, q: &mut EventQueue<E>) {
        let Some(w) = self.cfg.workers else { return };
        if self.triggers.paused(now) {
            return;
        }
        let w = self.triggers.workers(now, w);
        while self.busy < w {
            let Some(id) = self.queue.pop_front() else {
                return;
            };
            if self.jobs[id as usize].deadline <= now {
                self.counts.expired += 1;
                self.conc -= 1;
                self.free.push(id);
                continue;
            }
            self.start(now, id, q);
        }
    }
}

/// `base · factor^((conc − limit)/k)`, at most `max_ps`.
fn slowed(base: Time, s: Slowdown, ln_factor: f64, conc: u32) -> Time {
    let x = f64::from(conc - s.limit) / s.k * ln_factor;
    let t = base.as_ps_f64() * maths::exp(x);
    if t >= s.max_ps.as_ps_f64() {
        s.max_ps
    } else {
        Time::from_ps_f64(t.round())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowdown_doubles_every_k() {
        let s = Slowdown {
            limit: 30,
            factor: 2.0,
            k: 10.0,
            max_ps: Time::from_ps(1_000_000),
        };
        let ln2 = maths::ln(2.0);
        assert_eq!(slowed(Time::from_ps(100), s, ln2, 31), Time::from_ps(107)); // 100 · 2^0.1
        assert_eq!(slowed(Time::from_ps(100), s, ln2, 40), Time::from_ps(200));
        assert_eq!(slowed(Time::from_ps(100), s, ln2, 60), Time::from_ps(800));
        assert_eq!(slowed(Time::from_ps(100), s, ln2, 10_000), s.max_ps);
    }
}
