//! The server: workers with a service-time distribution and a FIFO queue, or (without
//! a worker limit) a pure latency model; optionally a load-dependent latency above a
//! concurrency limit, fixed when a request starts or re-evaluated while it runs;
//! deadline propagation.
//!
//! Re-evaluated latency is processor sharing: every request in service does its work
//! at the same rate, `1 / slowdown(concurrency now)`, so one clock of work done per
//! request, `W(t)` with `dW/dt = 1 / slowdown`, serves them all. A request that starts
//! needing work `w` is done when `W` reaches `W(start) + w`; the requests in service
//! wait in a min-heap by that target, and only the earliest one's end is scheduled,
//! again (under a new generation number, the old event then stale) whenever the
//! concurrency changes the rate: `O(log n)` per change.
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

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rand_xorshift::XorShiftRng;

use crate::config::{
    DEFAULT_LISTEN_BACKLOG, ErrorWork, Latency, PauseIntake, ServerConfig, Slowdown,
};
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
    /// Rejected at once by load shedding or the rate limiter (with what the server's
    /// `reject_answer` says).
    Rejected,
    /// Dropped by a full listen backlog: no answer ever reaches the client, whose
    /// timeout tells it.
    Dropped,
    /// "Overloaded, do not retry": from an overloaded trigger, or from a service of a
    /// call chain that answers so.
    Overloaded,
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
    /// Under re-evaluated latency: the event at which the earliest request in service
    /// is done, valid while the server's generation is `generation`.
    fn progress(generation: u64) -> Self;
    /// Under re-evaluated latency: the event that stops attempt `attempt`, in service
    /// as `job`, at its propagated deadline (stale if it is done by then).
    fn cancel(job: u32, attempt: u64) -> Self;
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
    /// Attempts dropped by a full listen backlog, without an answer.
    pub dropped: u64,
    /// Answered "overloaded, do not retry" by an overloaded trigger.
    pub overloaded: u64,
}

/// No attempt: a job id not in service under re-evaluated latency.
const IDLE: u64 = u64::MAX;

/// Re-evaluated latency: processor sharing on one clock of work (module docs).
struct Sharing {
    /// The slowdown (taken out of the server's configuration, so that each draw of
    /// the service time is the work a request needs).
    slowdown: Slowdown,
    /// `ln(factor)`.
    ln_factor: f64,
    /// The largest slowdown: `max / service mean`.
    max_factor: f64,
    /// Work done by each request in service since the run began, picoseconds of
    /// service (the clock `W`).
    work: f64,
    /// When `work` was brought up to date.
    at: Time,
    /// The requests in service by the work at which each is done: (the target's
    /// bits, which order as the non-negative target does; attempt; job id). Entries of
    /// jobs stopped at their deadline stay until they come to the top.
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
    /// By job id: the attempt in service under it, or [`IDLE`].
    in_service: Vec<u64>,
    /// The generation of the one valid progress event.
    generation: u64,
    /// The attempt whose end that event is, and the slowdown it was computed with.
    scheduled: Option<(u64, f64)>,
    /// The last concurrency asked about and its slowdown.
    last: (u32, f64),
}

impl Sharing {
    fn new(slowdown: Slowdown, mean: Time) -> Self {
        Self {
            ln_factor: maths::ln(slowdown.factor),
            max_factor: slowdown.max_ps.as_ps_f64() / mean.as_ps_f64(),
            slowdown,
            work: 0.0,
            at: Time::ZERO,
            heap: BinaryHeap::new(),
            in_service: Vec::new(),
            generation: 0,
            scheduled: None,
            last: (0, 1.0),
        }
    }

    /// The slowdown at concurrency `conc`: 1 up to the limit, then
    /// `factor^((conc − limit) / k)`, at most `max / mean`.
    fn factor(&mut self, conc: u32) -> f64 {
        let s = &self.slowdown;
        if conc <= s.limit {
            return 1.0;
        }
        if self.last.0 != conc {
            let f = maths::exp(f64::from(conc - s.limit) / s.k * self.ln_factor);
            self.last = (conc, f.min(self.max_factor));
        }
        self.last.1
    }

    /// The earliest request in service: (target, attempt, id); stale entries are
    /// dropped on the way.
    fn earliest(&mut self) -> Option<(f64, u64, u32)> {
        while let Some(&Reverse((bits, attempt, id))) = self.heap.peek() {
            if self.in_service[id as usize] == attempt {
                return Some((f64::from_bits(bits), attempt, id));
            }
            self.heap.pop();
        }
        None
    }
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
    /// Attempts taken in during the current pause (bounded by the listen backlog).
    held: u32,
    rng: XorShiftRng,
    counts: ServerCounts,
    /// Re-evaluated latency, when configured.
    sharing: Option<Sharing>,
}

impl Server {
    /// An idle server. Under re-evaluated latency the slowdown moves out of the
    /// server's copy of `cfg` into the clock of work that applies it.
    pub fn new(mut cfg: ServerConfig, triggers: Triggers, rng: XorShiftRng) -> Self {
        let ln_factor = cfg.slowdown.map_or(0.0, |s| maths::ln(s.factor));
        let sharing = match (cfg.latency, cfg.slowdown) {
            (Latency::ReEvaluated, Some(s)) => {
                cfg.slowdown = None;
                Some(Sharing::new(s, cfg.service.mean_ps()))
            }
            _ => None,
        };
        Self {
            sharing,
            bucket: cfg.rate_limit.map(Bucket::new),
            cfg,
            ln_factor,
            triggers,
            jobs: Vec::new(),
            errs: Vec::new(),
            free: Vec::new(),
            queue: VecDeque::new(),
            busy: 0,
            held: 0,
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
        if self.triggers.overloaded(now) {
            self.counts.overloaded += 1;
            q.schedule(now + self.cfg.error_ps, E::done(id, Outcome::Overloaded));
            return;
        }
        self.errs[id as usize] = err;
        if fail && err.is_none() {
            self.counts.errors += 1;
            q.schedule(now + self.cfg.error_ps, E::done(id, Outcome::Error));
            return;
        }
        // A paused server accepts nothing: the attempts of the pause wait in its
        // listen backlog (queued, or without workers held in service), and once it is
        // full the rest are dropped unanswered.
        if self.cfg.pause_intake == PauseIntake::Backlog && self.triggers.paused(now) {
            let backlog = self.cfg.listen_backlog.unwrap_or(DEFAULT_LISTEN_BACKLOG) as usize;
            let waiting = match self.cfg.workers {
                Some(_) => self.queue.len(),
                None => self.held as usize,
            };
            if waiting >= backlog {
                self.counts.dropped += 1;
                q.schedule(now, E::done(id, Outcome::Dropped));
                return;
            }
            self.held += 1;
        }
        // The listen backlog is in front of the server: a full one drops the attempt
        // before the server sees it, without an answer.
        if self
            .cfg
            .listen_backlog
            .is_some_and(|b| self.queue.len() >= b as usize && !self.can_start(now))
        {
            self.counts.dropped += 1;
            q.schedule(now, E::done(id, Outcome::Dropped));
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
        // The clock of work runs at the old rate up to now.
        self.advance(now);
        self.conc += 1;
        match self.cfg.workers {
            None => self.start(now, id, q),
            Some(w) if self.busy < self.triggers.workers(now, w) && !self.triggers.paused(now) => {
                self.start(now, id, q)
            }
            Some(_) => self.queue.push_back(id),
        }
        self.reschedule(now, q);
    }

    /// Whether a worker is free for a new attempt at `now`.
    #[inline]
    fn can_start(&self, now: Time) -> bool {
        match self.cfg.workers {
            None => true,
            Some(w) => self.busy < self.triggers.workers(now, w) && !self.triggers.paused(now),
        }
    }

    fn service_ps(&mut self, now: Time) -> Time {
        let base = self.cfg.service.sample(&mut self.rng);
        let t = match self.cfg.slowdown {
            Some(s) if self.conc > s.limit => slowed(base, s, self.ln_factor, self.conc),
            _ => base,
        };
        t.saturating_add(self.triggers.added(now, &mut self.rng))
    }

    fn start<E: ServerEvent>(&mut self, now: Time, id: u32, q: &mut EventQueue<E>) {
        self.busy += 1;
        let (work, outcome) = match self.errs[id as usize] {
            None if self.sharing.is_some() => {
                self.start_shared(now, id, q);
                return;
            }
            None => (self.service_ps(now), Outcome::Success),
            // Error work holds its worker for a time fixed when it starts, also under
            // re-evaluated latency.
            Some(ErrorWork::Time(t)) => (t, Outcome::Error),
            Some(ErrorWork::Fraction(f)) => {
                let t = Time::from_ps_f64((self.service_ps(now).as_ps_f64() * f).round());
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
            Outcome::Overloaded => return job,
            Outcome::Error if self.errs[id as usize].is_none() => return job,
            Outcome::Rejected | Outcome::Dropped => return job,
            Outcome::Error => self.counts.error_work += 1,
            Outcome::Success => self.counts.served += 1,
            Outcome::Cancelled => self.counts.cancelled += 1,
        }
        // Under re-evaluated latency (error work ends here too): the clock of work runs
        // at the old rate up to now, and the earliest end follows the new concurrency.
        self.advance(now);
        self.conc -= 1;
        self.busy -= 1;
        self.start_queued(now, q);
        self.reschedule(now, q);
        job
    }

    /// A pause or a capacity loss is over: start what waits.
    pub fn resume<E: ServerEvent>(&mut self, now: Time, q: &mut EventQueue<E>) {
        if !self.triggers.paused(now) {
            // The process runs again and accepts what its backlog held.
            self.held = 0;
        }
        self.advance(now);
        self.start_queued(now, q);
        self.reschedule(now, q);
    }

    /// Under re-evaluated latency, the progress event of `generation` comes due at
    /// `now`: the earliest request in service is done. Returns it (its id is free
    /// again) and starts queued work; `None` for a stale event.
    pub fn progress<E: ServerEvent>(
        &mut self,
        now: Time,
        generation: u64,
        q: &mut EventQueue<E>,
    ) -> Option<Job> {
        let sh = self.sharing.as_mut()?;
        if sh.generation != generation {
            return None;
        }
        let (_, _, id) = sh.earliest()?;
        sh.heap.pop();
        sh.in_service[id as usize] = IDLE;
        sh.scheduled = None;
        self.counts.served += 1;
        Some(self.leave(now, id, q))
    }

    /// Under re-evaluated latency, attempt `attempt` (as `job`) reaches its deadline at
    /// `now`: stopped if still in service. Returns it (its id is free again) and starts
    /// queued work; `None` if it was done already.
    pub fn cancel<E: ServerEvent>(
        &mut self,
        now: Time,
        id: u32,
        attempt: u64,
        q: &mut EventQueue<E>,
    ) -> Option<Job> {
        let sh = self.sharing.as_mut()?;
        let slot = sh.in_service.get_mut(id as usize)?;
        if *slot != attempt {
            return None;
        }
        // Its heap entry is stale from now on.
        *slot = IDLE;
        self.counts.cancelled += 1;
        Some(self.leave(now, id, q))
    }

    /// Job `id` leaves service at `now` under re-evaluated latency.
    fn leave<E: ServerEvent>(&mut self, now: Time, id: u32, q: &mut EventQueue<E>) -> Job {
        self.advance(now);
        let job = self.jobs[id as usize];
        self.free.push(id);
        self.conc -= 1;
        self.busy -= 1;
        self.start_queued(now, q);
        self.reschedule(now, q);
        job
    }

    /// Job `id` starts at `now` under re-evaluated latency: it needs one draw of the
    /// service time as work; a propagated deadline stops it if it is not done by then.
    fn start_shared<E: ServerEvent>(&mut self, now: Time, id: u32, q: &mut EventQueue<E>) {
        let need = self.service_ps(now);
        let Job {
            attempt, deadline, ..
        } = self.jobs[id as usize];
        let Some(sh) = self.sharing.as_mut() else {
            return;
        };
        let target = sh.work + need.as_ps_f64();
        sh.heap.push(Reverse((target.to_bits(), attempt, id)));
        let i = id as usize;
        if sh.in_service.len() <= i {
            sh.in_service.resize(i + 1, IDLE);
        }
        sh.in_service[i] = attempt;
        if deadline != Time::MAX {
            q.schedule(deadline.max(now), E::cancel(id, attempt));
        }
    }

    /// Bring the clock of work up to `now` at the current slowdown (no work is done
    /// while the server is paused). Nothing under latency fixed at the start.
    #[inline]
    fn advance(&mut self, now: Time) {
        let Some(sh) = self.sharing.as_mut() else {
            return;
        };
        if now > sh.at {
            let active = self.triggers.active_between(sh.at, now);
            sh.work += active.as_ps_f64() / sh.factor(self.conc);
            sh.at = now;
        }
    }

    /// After the concurrency or the requests in service changed at `now`: schedule the
    /// earliest request's end, unless the event scheduled is still right (the same
    /// request, the same slowdown). Nothing under latency fixed at the start.
    #[inline]
    fn reschedule<E: ServerEvent>(&mut self, now: Time, q: &mut EventQueue<E>) {
        let conc = self.conc;
        let Some(sh) = self.sharing.as_mut() else {
            return;
        };
        let factor = sh.factor(conc);
        let Some((target, attempt, _)) = sh.earliest() else {
            sh.scheduled = None;
            return;
        };
        if sh.scheduled == Some((attempt, factor)) {
            return;
        }
        sh.generation += 1;
        sh.scheduled = Some((attempt, factor));
        let left = ((target - sh.work).max(0.0) * factor).round();
        let end = self.triggers.frozen_end(now, Time::from_ps_f64(left));
        q.schedule(end, E::progress(sh.generation));
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

    /// The events of the tests: arrivals and the server's own.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Ev {
        Arrive(u32),
        Done(u32, Outcome),
        Resume,
        Progress(u64),
        Cancel(u32, u64),
        Reach(u32),
    }

    impl ServerEvent for Ev {
        fn done(job: u32, outcome: Outcome) -> Self {
            Ev::Done(job, outcome)
        }
        fn resume() -> Self {
            Ev::Resume
        }
        fn progress(generation: u64) -> Self {
            Ev::Progress(generation)
        }
        fn cancel(job: u32, attempt: u64) -> Self {
            Ev::Cancel(job, attempt)
        }
        fn reach(job: u32) -> Self {
            Ev::Reach(job)
        }
    }

    use crate::config::{Latency, ServiceTime, Trigger, TriggerKind};
    use rand_core::SeedableRng;

    const MEAN: Time = Time::from_ps(100_000_000_000); // 100 ms

    fn shared(workers: Option<u32>, max_ps: Time) -> ServerConfig {
        ServerConfig {
            workers,
            service: ServiceTime::Exponential(MEAN),
            slowdown: Some(Slowdown {
                limit: 3,
                factor: 2.0,
                k: 2.0,
                max_ps,
            }),
            error_ps: Time::from_ms(1),
            queue_limit: None,
            listen_backlog: None,
            pause_intake: PauseIntake::Backlog,
            rate_limit: None,
            retry_after_ps: Time::ZERO,
            reject_answer: crate::config::RejectAnswer::RetryAfter,
            latency: Latency::ReEvaluated,
            error_work: None,
            rtt_ps: Time::ZERO,
        }
    }

    /// Arrivals in bursts, so that the concurrency climbs well above the limit and
    /// falls back: `(time, deadline)`.
    fn arrivals(n: u32, deadlines: bool) -> Vec<(Time, Time)> {
        let mut rng = XorShiftRng::seed_from_u64(9);
        let mut t = Time::ZERO;
        (0..n)
            .map(|i| {
                let gap = if i % 10 < 7 { 2.0e9 } else { 3.0e11 };
                t += Time::from_ps_f64(maths::exponential(&mut rng, gap).round());
                let d = if deadlines && i % 3 == 0 {
                    t + Time::from_ms(150)
                } else {
                    Time::MAX
                };
                (t, d)
            })
            .collect()
    }

    /// When each request ends (and whether it was stopped at its deadline), by the
    /// server's heap of targets.
    fn by_server(cfg: &ServerConfig, pauses: &[Trigger], a: &[(Time, Time)]) -> Vec<(Time, bool)> {
        let mut server = Server::new(
            cfg.clone(),
            Triggers::new(pauses),
            XorShiftRng::seed_from_u64(5),
        );
        let mut q = EventQueue::new();
        for (i, &(t, _)) in a.iter().enumerate() {
            q.schedule(t, Ev::Arrive(i as u32));
        }
        server.schedule_resume(&mut q);
        let mut end = vec![(Time::MAX, false); a.len()];
        let mut steps = 0;
        while let Some((now, ev)) = q.pop() {
            steps += 1;
            assert!(
                steps < 100 * a.len(),
                "the server's events do not end: {ev:?} at {now:?}"
            );
            match ev {
                Ev::Arrive(i) => {
                    let job = Job {
                        req: i,
                        attempt: u64::from(i),
                        user: 0,
                        deadline: a[i as usize].1,
                    };
                    server.arrive(now, job, &mut q);
                }
                Ev::Progress(g) => {
                    if let Some(j) = server.progress(now, g, &mut q) {
                        end[j.req as usize] = (now, false);
                    }
                }
                Ev::Cancel(id, attempt) => {
                    if let Some(j) = server.cancel(now, id, attempt, &mut q) {
                        end[j.req as usize] = (now, true);
                    }
                }
                Ev::Resume => server.resume(now, &mut q),
                Ev::Done(..) | Ev::Reach(..) => panic!("no errors and no round trip here"),
            }
        }
        assert_eq!(server.concurrency(), 0);
        end
    }

    /// The same by brute force: every request's remaining work, all brought down at
    /// each step by the time since the last one over the slowdown of the concurrency
    /// then (none while paused); the service times drawn in the order requests start.
    fn brute_force(
        cfg: &ServerConfig,
        pauses: &[(Time, Time)],
        a: &[(Time, Time)],
    ) -> Vec<(Time, bool)> {
        let sl = cfg.slowdown.unwrap();
        let factor = |conc: usize| {
            if conc as u32 <= sl.limit {
                1.0
            } else {
                2f64.powf((conc as f64 - f64::from(sl.limit)) / sl.k)
                    .min(sl.max_ps.as_ps_f64() / MEAN.as_ps_f64())
            }
        };
        let paused = |t: f64| {
            pauses
                .iter()
                .any(|p| p.0.as_ps_f64() <= t && t < p.1.as_ps_f64())
        };
        let mut rng = XorShiftRng::seed_from_u64(5);
        let mut draw = || {
            Time::from_ps_f64(maths::exponential(&mut rng, MEAN.as_ps_f64()).round())
                .max(Time::from_ps(1))
                .as_ps_f64()
        };
        let workers = cfg.workers.map_or(usize::MAX, |w| w as usize);
        // In service: (request, work left); waiting: requests.
        let (mut busy, mut waiting): (Vec<(usize, f64)>, VecDeque<usize>) = Default::default();
        let mut end = vec![(Time::MAX, false); a.len()];
        let mut next = 0;
        let mut now = 0.0;
        let mut steps = 0;
        let edges: Vec<f64> = pauses
            .iter()
            .flat_map(|p| [p.0.as_ps_f64(), p.1.as_ps_f64()])
            .collect();
        loop {
            steps += 1;
            assert!(
                steps < 100 * a.len(),
                "the brute force does not end at {now}"
            );
            let conc = busy.len() + waiting.len();
            let f = factor(conc);
            let stopped = paused(now);
            // The next thing to happen: an arrival, a pause's edge, an end, a deadline.
            let mut t = a.get(next).map_or(f64::INFINITY, |x| x.0.as_ps_f64());
            for &e in &edges {
                if e > now {
                    t = t.min(e);
                }
            }
            for &(r, left) in &busy {
                if !stopped {
                    t = t.min(now + left * f);
                }
                t = t.min(a[r].1.as_ps_f64().max(now));
            }
            if t == f64::INFINITY {
                break;
            }
            if !stopped {
                for b in &mut busy {
                    b.1 -= (t - now) / f;
                }
            }
            now = t;
            let at = Time::from_ps_f64(now.round());
            // Ends and deadlines first, then arrivals, then queued work starts.
            busy.retain(|&(r, left)| {
                if !stopped && left <= 1.0 {
                    end[r] = (at, false);
                    false
                } else if a[r].1.as_ps_f64() <= now {
                    end[r] = (at, true);
                    false
                } else {
                    true
                }
            });
            while next < a.len() && a[next].0.as_ps_f64() <= now {
                // Without workers a request starts at once, also in a pause (frozen).
                if cfg.workers.is_none() || (busy.len() < workers && !paused(now)) {
                    busy.push((next, draw()));
                } else {
                    waiting.push_back(next);
                }
                next += 1;
            }
            while busy.len() < workers && !paused(now) {
                let Some(r) = waiting.pop_front() else { break };
                // Dropped unstarted, deadline passed: the server never answers it.
                if a[r].1.as_ps_f64() > now {
                    busy.push((r, draw()));
                }
            }
        }
        end
    }

    #[test]
    fn shared_latency_matches_brute_force() {
        let ms = Time::from_ms;
        let pause = Trigger {
            start_ps: ms(1_500),
            end_ps: ms(2_300),
            kind: TriggerKind::Pause,
            error_work: None,
        };
        for workers in [None, Some(4)] {
            for (pauses, deadlines) in [
                (&[][..], false),
                (&[pause][..], false),
                (&[pause][..], true),
            ] {
                let cfg = shared(workers, ms(5_000));
                let a = arrivals(120, deadlines);
                let windows: Vec<(Time, Time)> =
                    pauses.iter().map(|p| (p.start_ps, p.end_ps)).collect();
                let heap = by_server(&cfg, pauses, &a);
                let brute = brute_force(&cfg, &windows, &a);
                let mut above = 0;
                for (i, (h, b)) in heap.iter().zip(&brute).enumerate() {
                    // Rounding to the picosecond at each change: a few ps at most.
                    let diff = h.0.as_ps_f64() - b.0.as_ps_f64();
                    assert!(
                        diff.abs() < 1e3 && h.1 == b.1,
                        "{workers:?} {pauses:?} request {i}: {h:?} by the heap, {b:?} by brute force"
                    );
                    above += usize::from(h.0 - a[i].0 > ms(300));
                }
                // The test means something: many requests were slowed down.
                assert!(above > 10, "{workers:?}: {above} slowed");
            }
        }
    }

    #[test]
    fn the_largest_slowdown_is_max_over_the_mean() {
        // Ten requests at once, far above the limit of 3: each progresses at 1/cap.
        let cfg = ServerConfig {
            service: ServiceTime::Fixed(MEAN),
            ..shared(None, Time::from_ms(400))
        };
        let a = vec![(Time::ZERO, Time::MAX); 10];
        let end = by_server(&cfg, &[], &a);
        // 2^((10 - 3)/2) = 11.3 is capped at 4: all end at 400 ms.
        assert!(
            end.iter().all(|e| *e == (Time::from_ms(400), false)),
            "{end:?}"
        );
    }

    #[test]
    fn stale_events_are_skipped() {
        let cfg = ServerConfig {
            service: ServiceTime::Fixed(MEAN),
            ..shared(None, Time::from_ms(400))
        };
        let mut server = Server::new(cfg, Triggers::new(&[]), XorShiftRng::seed_from_u64(1));
        let mut q: EventQueue<Ev> = EventQueue::new();
        let job = |i: u32, deadline| Job {
            req: i,
            attempt: u64::from(i),
            user: 0,
            deadline,
        };
        server.arrive(Time::ZERO, job(0, Time::from_ms(500)), &mut q);
        // Done at 100 ms; the deadline's event at 500 ms is then stale.
        assert_eq!(q.pop(), Some((Time::from_ms(100), Ev::Progress(1))));
        assert_eq!(
            server.progress(Time::from_ms(100), 1, &mut q),
            Some(job(0, Time::from_ms(500)))
        );
        assert_eq!(server.progress(Time::from_ms(100), 1, &mut q), None);
        let (t, ev) = q.pop().unwrap();
        assert_eq!((t, ev), (Time::from_ms(500), Ev::Cancel(0, 0)));
        // Job id 0 is reused by attempt 1 before that deadline comes.
        server.arrive(Time::from_ms(200), job(1, Time::MAX), &mut q);
        assert_eq!(server.cancel(t, 0, 0, &mut q), None);
        assert_eq!(server.cancel(t, 0, 1, &mut q), Some(job(1, Time::MAX)));
        assert_eq!(server.counts().cancelled, 1);
        assert_eq!(server.concurrency(), 0);
    }
}
