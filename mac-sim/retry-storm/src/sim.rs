//! The storm model on the engine: events, the client's decision after a failed
//! attempt, and [`run`].

use std::sync::atomic::AtomicBool;

use backoff_core::hedge::{HedgeEnd, HedgeFailure, HedgeResponse, HedgeStep, HedgedCall};
use backoff_core::{
    Deadline, HedgingPolicy, QuotaFailure, RetryDecision, RetryState, ServerAnswer, StopReason,
};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use serde::{Deserialize, Serialize};

use crate::chain::{Layer, LayerLoad};
use crate::clients::{Next, Population, Request, Requests};
use crate::config::{Load, RejectAnswer, StormConfig};
use crate::error::StormError;
use crate::metrics::{BinRow, Series};
use crate::recovery::{Summary, summarise};
use crate::server::{Job, Outcome, Server, ServerEvent};
use crate::strategy::{Guards, Refusal};
use crate::triggers::Triggers;
use sim_kit::engine::{Engine, EventQueue, Model};
use sim_kit::maths::split_seed;
use sim_kit::time::Time;

/// An event of the storm model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The next open-loop logical request arrives.
    Arrival,
    /// A closed-loop client ends its think time and issues a request; or a capped
    /// client starts the waiting arrival it took.
    Wake(u32),
    /// A request's next attempt goes out (after its backoff delay).
    Send(u32),
    /// The client stops waiting for an attempt.
    Timeout {
        /// The request.
        req: u32,
        /// The attempt's serial number.
        attempt: u64,
    },
    /// The server ends a job.
    Done {
        /// The job.
        job: u32,
        /// How it ended.
        outcome: Outcome,
    },
    /// A paused server resumes.
    Resume,
    /// An attempt reaches the server, half a round trip after it was sent.
    Reach(u32),
    /// A server's answer reaches its caller, half a round trip after it was given.
    Answer {
        /// The request.
        req: u32,
        /// The attempt's serial number.
        attempt: u64,
        /// How the server ended it.
        outcome: Outcome,
    },
    /// Under re-evaluated latency: the earliest request in service may be done
    /// (stale unless the server's generation is still this one).
    Progress {
        /// The server's generation when it was scheduled.
        generation: u64,
    },
    /// Under re-evaluated latency: an attempt's propagated deadline (stale if the
    /// attempt is done by then).
    Cancel {
        /// The job.
        job: u32,
        /// The attempt in service as that job.
        attempt: u64,
    },
}

impl ServerEvent for Event {
    fn done(job: u32, outcome: Outcome) -> Self {
        Event::Done { job, outcome }
    }
    fn resume() -> Self {
        Event::Resume
    }
    fn reach(job: u32) -> Self {
        Event::Reach(job)
    }
    fn progress(generation: u64) -> Self {
        Event::Progress { generation }
    }
    fn cancel(job: u32, attempt: u64) -> Self {
        Event::Cancel { job, attempt }
    }
}

/// How the logical requests ended, and what the server did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Logical requests issued.
    pub offered: u64,
    /// Attempts sent (first ones and retries).
    pub attempts: u64,
    /// Logical requests that succeeded.
    pub succeeded: u64,
    /// Failed: the policy gave up (or never retries).
    pub gave_up: u64,
    /// Failed: the request's deadline would have passed.
    pub deadline: u64,
    /// Failed: the retry budget was spent.
    pub budget: u64,
    /// Failed: the retry circuit breaker refused the retry.
    pub retry_breaker: u64,
    /// Failed: the circuit breaker refused the call.
    pub breaker_open: u64,
    /// Hedges sent (attempts after a hedged request's first; counted in `attempts`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hedges: u64,
    /// Attempts held back by the adaptive rate limiter until its token came (each
    /// attempt counted once, however many times it asked).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rate_limited: u64,
    /// Turned away: every capped client was busy (and, where arrivals wait, the
    /// waiting line was full).
    pub turned_away: u64,
    /// Arrivals that waited for a free capped client (counted when they arrived).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub waited: u64,
    /// The longest the line of arrivals waiting for a free client grew.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_waiting: u64,
    /// Arrivals a capped client took up where arrivals wait, at once or after a wait.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub taken_up: u64,
    /// Their waits for a free client, summed, microseconds (apart from the latency,
    /// which runs from when a client took a request up).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wait_total_us: u64,
    /// Still in flight at the horizon (arrivals still waiting for a client included).
    pub in_flight: u64,
    /// Attempts that timed out at the client.
    pub timeouts: u64,
    /// Attempts answered with an error.
    pub errors: u64,
    /// Error answers the server gave after holding a worker for their error work.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub error_work: u64,
    /// Server work finished (answers to attempts, whether awaited or not).
    pub served: u64,
    /// Server work finished after its client had stopped waiting: work done for
    /// nobody.
    pub wasted: u64,
    /// Server jobs stopped at their propagated deadline.
    pub cancelled: u64,
    /// Attempts rejected at once by load shedding or the rate limiter.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rejected: u64,
    /// Attempts dropped by a full listen backlog, never answered (their clients
    /// timed out).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
    /// Attempts answered "overloaded, do not retry" (by an overloaded trigger, a
    /// rejection that says so, or the first service of a call chain).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub overloaded: u64,
    /// Failed: the server said not to retry, and the strategy honours it
    /// (`honour-overload`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub refused: u64,
    /// Queued server jobs dropped, deadline passed, with no work done.
    pub expired: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Counts {
    /// Logical requests that failed, for any reason.
    pub fn failed(&self) -> u64 {
        self.gave_up
            + self.deadline
            + self.budget
            + self.retry_breaker
            + self.breaker_open
            + self.turned_away
            + self.refused
    }

    /// The fraction of the server's finished work whose answer nobody waited for.
    pub fn wasted_fraction(&self) -> f64 {
        if self.served == 0 {
            0.0
        } else {
            self.wasted as f64 / self.served as f64
        }
    }

    /// The mean wait for a free client of the arrivals a capped client took up, ms
    /// (NaN where arrivals do not wait).
    pub fn wait_mean_ms(&self) -> f64 {
        if self.taken_up == 0 {
            f64::NAN
        } else {
            self.wait_total_us as f64 / self.taken_up as f64 / 1000.0
        }
    }

    /// Conservation of logical requests: every one issued has succeeded, failed for
    /// one counted reason, or is still in flight at the horizon.
    pub fn balanced(&self) -> bool {
        self.offered == self.succeeded + self.failed() + self.in_flight
    }
}

/// The result of one storm run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StormResult {
    /// The strategy's name.
    pub strategy: String,
    /// The configuration.
    pub config: StormConfig,
    /// Counters.
    pub counts: Counts,
    /// The summary and recovery verdict.
    pub summary: Summary,
    /// The time series.
    pub series: Vec<BinRow>,
    /// Events handled (stale timeouts excluded).
    pub events: u64,
    /// The load each layer of a call chain sent down (empty without a chain).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerLoad>,
}

struct Storm {
    /// The callers, the clients first ([`crate::chain`]).
    layers: Vec<Layer>,
    /// Whether there is a call chain (per-layer loads are counted only then).
    chained: bool,
    /// From the first trigger's start to the last one's end.
    window: Option<(Time, Time)>,
    /// Logical requests issued inside that window (counted with a chain).
    offered_during: u64,
    /// What the server's rejections say.
    rejection: ServerAnswer,
    horizon: Time,
    timeouts: Vec<Time>,
    users: u32,
    nominal_ns: u64,
    pop: Population,
    /// The triggers, for the load spikes (the server asks its own copy).
    triggers: Triggers,
    /// The largest load factor (1 without spikes): open-loop arrivals come at this
    /// rate and are thinned to the factor of the moment.
    peak: f64,
    reqs: Requests,
    server: Server,
    series: Series,
    /// The clients' logical requests in flight that have had a retry scheduled, and
    /// which requests (by id) they are.
    backlog: u32,
    retrying: Vec<bool>,
    /// Whether arrivals wait for a free capped client (their waits are measured).
    waits: bool,
    counts: Counts,
    next_attempt: u64,
    arrivals: XorShiftRng,
    clients: XorShiftRng,
    /// The clients' hedging policy, if they hedge (then every request is a hedged
    /// call, and there is no call chain).
    hedging: Option<HedgingPolicy>,
    /// Each request slot's hedged call, with hedging.
    hedges: Vec<HedgeSlot>,
}

/// A hedged call in flight: its state machine and its attempts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HedgeSlot {
    call: HedgedCall,
    /// The serial number of attempt `k + 1` (`u64::MAX`: not sent).
    ids: [u64; 5],
    /// Bit `k`: attempt `k + 1` awaits its answer.
    live: u8,
    /// The wake-up scheduled for the next hedge (`Time::MAX`: none).
    wake_at: Time,
    /// Whether the call is in flight (its slot's wake-ups are its own).
    active: bool,
}

#[inline]
fn ns(t: Time) -> u64 {
    t.as_ns()
}

#[inline]
fn ps(ns: u64) -> Time {
    Time::from_ns(ns)
}

impl Storm {
    /// The offered load's factor at `now` (1 without load spikes).
    #[inline]
    fn load_factor(&self, now: Time) -> f64 {
        if !self.triggers.has_spikes() {
            1.0
        } else {
            self.triggers.load_factor(now)
        }
    }

    /// Whether an open-loop arrival at `now` is kept: all are without spikes; with
    /// them, arrivals come at the peak rate and each is kept with probability
    /// factor / peak (thinning a Poisson stream gives one of the lower rate).
    #[inline]
    fn keep_arrival(&mut self, now: Time) -> bool {
        if !self.triggers.has_spikes() {
            return true;
        }
        let u = (self.arrivals.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        u * self.peak < self.triggers.load_factor(now)
    }

    fn start_request(&mut self, now: Time, client: u32, q: &mut EventQueue<Event>) {
        self.offer(now);
        self.begin(now, now, client, q);
    }

    /// A logical request arrives at `now` (counted as offered).
    #[inline]
    fn offer(&mut self, now: Time) {
        self.counts.offered += 1;
        self.series.offered(now);
        if self.chained && self.during(now) {
            self.offered_during += 1;
        }
    }

    /// `client` starts at `now` the logical request that arrived at `start` (earlier
    /// when it waited for a free client: its deadline counts from then, its latency from
    /// `now`, and the wait between is measured apart).
    fn begin(&mut self, now: Time, start: Time, client: u32, q: &mut EventQueue<Event>) {
        use backoff_core::uniform::uniform_below;
        let user = uniform_below(&mut self.clients, self.users);
        let timeout = match self.timeouts.len() {
            1 => self.timeouts[0],
            n => self.timeouts[uniform_below(&mut self.clients, n as u32) as usize],
        };
        let deadline = match self.layers[0].strategy.request_deadline_ns {
            Some(d) => Deadline::after(ns(start), d),
            None => Deadline::NONE,
        };
        if let Some(g) = self.pop.guards(client) {
            g.on_request(ns(now));
        }
        if self.waits {
            let wait = now - start;
            self.series.waited(now, wait);
            self.counts.taken_up += 1;
            self.counts.wait_total_us += wait.as_ns() / 1_000;
        }
        let req = self.reqs.insert(Request {
            client,
            user,
            start,
            began: now,
            state: RetryState::new(),
            deadline,
            timeout,
            attempt: u64::MAX,
            outstanding: false,
            layer: 0,
            parent: u32::MAX,
            parent_attempt: u64::MAX,
            quota_taken: 0,
            rate_held: false,
        });
        if let Some(policy) = self.hedging {
            // gRPC's deadline: the attempt timeout bounds the whole hedged call.
            let deadline = start.saturating_add(timeout);
            let slot = HedgeSlot {
                call: HedgedCall::new(policy, ns(now)).with_deadline(ns(deadline)),
                ids: [u64::MAX; 5],
                live: 0,
                wake_at: Time::MAX,
                active: true,
            };
            let i = req as usize;
            if i >= self.hedges.len() {
                self.hedges.resize(i + 1, slot);
            }
            self.hedges[i] = slot;
            q.schedule(deadline, Event::Send(req));
            self.hedge_poll(now, req, q);
            return;
        }
        self.send(now, req, q);
    }

    /// Drive hedged call `req` at `now`: send what is due, schedule the next hedge,
    /// or end the call.
    fn hedge_poll(&mut self, now: Time, req: u32, q: &mut EventQueue<Event>) {
        loop {
            let client = self.reqs.get(req).client;
            let mut slot = self.hedges[req as usize];
            let step = match self.pop.guards(client) {
                Some(g) => slot.call.poll(ns(now), g),
                None => slot.call.poll(ns(now), &mut ()),
            };
            self.hedges[req as usize] = slot;
            match step {
                HedgeStep::Send { attempt } => {
                    self.send_hedged(now, req, attempt, q);
                    if !self.hedges[req as usize].active {
                        return; // the breaker refused the original
                    }
                }
                HedgeStep::WaitUntil { at_ns } => {
                    let at = ps(at_ns);
                    if slot.wake_at != at {
                        self.hedges[req as usize].wake_at = at;
                        q.schedule(at, Event::Send(req));
                    }
                    return;
                }
                HedgeStep::AwaitOutstanding => return,
                HedgeStep::Done(HedgeEnd::Succeeded { .. }) => {
                    self.end_hedged(req);
                    self.finish(now, req, true, q);
                    return;
                }
                HedgeStep::Done(HedgeEnd::Failed(why)) => {
                    match why {
                        HedgeFailure::ServerRefused => self.counts.refused += 1,
                        HedgeFailure::Throttled => self.counts.budget += 1,
                        HedgeFailure::Deadline => {
                            // The call's deadline: every attempt still out timed out.
                            self.counts.deadline += 1;
                            self.counts.timeouts += u64::from(slot.live.count_ones());
                        }
                        _ => self.counts.gave_up += 1,
                    }
                    self.end_hedged(req);
                    self.finish(now, req, false, q);
                    return;
                }
            }
        }
    }

    /// Hedged call `req` is over: its attempts still out are answered to nobody.
    fn end_hedged(&mut self, req: u32) {
        let slot = &mut self.hedges[req as usize];
        slot.live = 0;
        slot.active = false;
    }

    /// Attempt `attempt` of hedged call `req` goes out at `now` (a breaker that
    /// refuses it fails it at once).
    fn send_hedged(&mut self, now: Time, req: u32, attempt: u32, q: &mut EventQueue<Event>) {
        let r = *self.reqs.get(req);
        let k = (attempt - 1) as usize;
        if !self.pop.guards(r.client).is_none_or(|g| g.acquire(ns(now))) {
            if attempt == 1 {
                // Nothing was sent: the call ends refused, as a retried request's does.
                self.counts.breaker_open += 1;
                self.end_hedged(req);
                self.finish(now, req, false, q);
                return;
            }
            let mut slot = self.hedges[req as usize];
            slot.ids[k] = u64::MAX;
            match self.pop.guards(r.client) {
                Some(g) => slot
                    .call
                    .on_response(attempt, ns(now), HedgeResponse::NON_FATAL, g),
                None => slot
                    .call
                    .on_response(attempt, ns(now), HedgeResponse::NON_FATAL, &mut ()),
            }
            self.hedges[req as usize] = slot;
            return;
        }
        let id = self.next_attempt;
        self.next_attempt += 1;
        let slot = &mut self.hedges[req as usize];
        slot.ids[k] = id;
        slot.live |= 1 << k;
        let rq = self.reqs.get(req);
        rq.attempt = id;
        rq.outstanding = true;
        self.counts.attempts += 1;
        self.series.attempt(now, attempt > 1);
        if attempt > 1 {
            self.counts.hedges += 1;
            self.mark_retrying(req);
        }
        self.send_to_server(now, req, id, &r, r.timeout, q);
    }

    /// Attempt `id` of `req` (`r`) goes to the server at `now`, with the deadline
    /// `timeout` from now if its layer propagates deadlines.
    fn send_to_server(
        &mut self,
        now: Time,
        req: u32,
        id: u64,
        r: &Request,
        timeout: Time,
        q: &mut EventQueue<Event>,
    ) {
        let deadline = if self.layers[r.layer as usize].strategy.propagate {
            now.saturating_add(timeout)
        } else {
            Time::MAX
        };
        let job = Job {
            req,
            attempt: id,
            user: r.user,
            deadline,
        };
        self.series.arrived(now + self.server.outbound());
        self.server.send(now, job, q);
    }

    /// An answer to attempt serial `id` of hedged call `req`; whether it was awaited.
    fn hedged_answer(
        &mut self,
        now: Time,
        req: u32,
        id: u64,
        outcome: Outcome,
        q: &mut EventQueue<Event>,
    ) -> bool {
        let Some(slot) = self.hedges.get(req as usize).copied() else {
            return false;
        };
        let Some(k) = (0..5).find(|&k| slot.ids[k] == id && slot.live & (1 << k) != 0) else {
            return false;
        };
        let mut slot = slot;
        slot.live &= !(1 << k);
        let success = outcome == Outcome::Success;
        self.series.attempt_ended(now, success);
        let response = match outcome {
            Outcome::Success => HedgeResponse::Ok,
            // Every failure is UNAVAILABLE, a non-fatal status; a rejection's
            // Retry-After and an overload's refusal are the server's pushback.
            Outcome::Rejected => HedgeResponse::NonFatal(self.rejection),
            Outcome::Overloaded => HedgeResponse::NonFatal(ServerAnswer::DoNotRetry),
            _ => HedgeResponse::NON_FATAL,
        };
        self.counts.errors += u64::from(outcome == Outcome::Error);
        self.counts.overloaded += u64::from(outcome == Outcome::Overloaded);
        let client = self.reqs.get(req).client;
        let attempt = k as u32 + 1;
        match self.pop.guards(client) {
            Some(g) => slot.call.on_response(attempt, ns(now), response, g),
            None => slot.call.on_response(attempt, ns(now), response, &mut ()),
        }
        self.hedges[req as usize] = slot;
        self.hedge_poll(now, req, q);
        true
    }

    /// Whether a trigger window is open at `now`.
    #[inline]
    fn during(&self, now: Time) -> bool {
        self.window.is_some_and(|(s, e)| (s..e).contains(&now))
    }

    /// The guards of a caller: a client's, or a service's.
    #[inline]
    fn guards(&mut self, layer: u8, client: u32) -> Option<&mut Guards> {
        match layer {
            0 => self.pop.guards(client),
            k => self.layers[k as usize].guards.as_mut(),
        }
    }

    /// The service of layer `p.layer + 1` receives attempt `attempt` of request
    /// `parent` (`p`), which waits for it at most `timeout`, and calls down.
    fn start_child(
        &mut self,
        now: Time,
        parent: u32,
        p: &Request,
        attempt: u64,
        timeout: Time,
        q: &mut EventQueue<Event>,
    ) {
        let layer = p.layer + 1;
        // A caller that propagates its deadline bounds the whole call below.
        let deadline = if self.layers[p.layer as usize].strategy.propagate {
            Deadline::after(ns(now), ns(timeout))
        } else {
            Deadline::NONE
        };
        let l = &mut self.layers[layer as usize];
        if let Some(g) = l.guards.as_mut() {
            g.on_request(ns(now));
        }
        let child = self.reqs.insert(Request {
            client: p.client,
            user: p.user,
            start: now,
            began: now,
            state: RetryState::new(),
            deadline,
            timeout: l.timeout,
            attempt: u64::MAX,
            outstanding: false,
            layer,
            parent,
            parent_attempt: attempt,
            quota_taken: 0,
            rate_held: false,
        });
        self.send(now, child, q);
    }

    /// The attempt `attempt` of `req` is answered at `now` with `outcome`. Returns
    /// whether its caller was still waiting for it.
    fn answer(
        &mut self,
        now: Time,
        req: u32,
        attempt: u64,
        outcome: Outcome,
        q: &mut EventQueue<Event>,
    ) -> bool {
        if self.hedging.is_some() {
            return self.hedged_answer(now, req, attempt, outcome, q);
        }
        let r = self.reqs.get(req);
        if r.attempt != attempt || !r.outstanding {
            return false;
        }
        r.outstanding = false;
        let (client, layer, taken) = (r.client, r.layer, r.quota_taken);
        if layer == 0 {
            self.series.attempt_ended(now, outcome == Outcome::Success);
        }
        let throttled = matches!(outcome, Outcome::Rejected | Outcome::Overloaded);
        if let Some(g) = self.guards(layer, client) {
            g.on_response(ns(now), throttled);
        }
        if outcome == Outcome::Success {
            if let Some(g) = self.guards(layer, client) {
                g.on_outcome(ns(now), true);
                g.on_request_success(taken);
            }
            self.finish(now, req, true, q);
        } else {
            let said = match outcome {
                Outcome::Rejected => self.rejection,
                Outcome::Overloaded => ServerAnswer::DoNotRetry,
                _ => ServerAnswer::None,
            };
            if layer == 0 {
                self.counts.errors += u64::from(outcome == Outcome::Error);
                self.counts.overloaded += u64::from(said == ServerAnswer::DoNotRetry);
            }
            let answer = self.layers[layer as usize].strategy.server_answer(said);
            self.failed_attempt(now, req, answer, QuotaFailure::Retryable, q);
        }
        true
    }

    fn send(&mut self, now: Time, req: u32, q: &mut EventQueue<Event>) {
        let r = *self.reqs.get(req);
        let top = r.layer == 0;
        // The adaptive rate limiter first: an attempt that must wait for its token
        // spends no breaker probe.
        if let Some(wait_ns) = self
            .guards(r.layer, r.client)
            .and_then(|g| g.rate_wait(ns(now)))
        {
            let rq = self.reqs.get(req);
            if !rq.rate_held {
                rq.rate_held = true;
                self.counts.rate_limited += u64::from(top);
            }
            q.schedule(now.saturating_add(ps(wait_ns)), Event::Send(req));
            return;
        }
        if !self
            .guards(r.layer, r.client)
            .is_none_or(|g| g.acquire(ns(now)))
        {
            self.counts.breaker_open += u64::from(top);
            self.finish(now, req, false, q);
            return;
        }
        // The attempt's timeout: the caller's, cut to what is left of the deadline.
        let Some(t_ns) = r.deadline.attempt_timeout_nanos(ns(now), 0, ns(r.timeout)) else {
            self.counts.deadline += u64::from(top);
            self.finish(now, req, false, q);
            return;
        };
        let timeout = ps(t_ns).max(Time::from_ps(1));
        let id = self.next_attempt;
        self.next_attempt += 1;
        let rq = self.reqs.get(req);
        rq.rate_held = false;
        rq.attempt = id;
        rq.outstanding = true;
        if top {
            self.counts.attempts += 1;
            self.series.attempt(now, r.state.failures() > 0);
        }
        if self.chained {
            let during = self.during(now);
            let l = &mut self.layers[r.layer as usize];
            l.attempts += 1;
            l.attempts_during += u64::from(during);
            self.series.layer_attempt(now, r.layer as usize);
        }
        q.schedule(now + timeout, Event::Timeout { req, attempt: id });
        if (r.layer as usize) + 1 < self.layers.len() {
            self.start_child(now, req, &r, id, timeout, q);
            return;
        }
        self.send_to_server(now, req, id, &r, timeout, q);
    }

    /// The current attempt of `req` failed at `now`: ask the policy, the deadline and
    /// the guards whether and when to retry, the policy taking the server's `answer`
    /// (a Retry-After, "do not retry") with the failure, a retry quota its kind
    /// (`failure`: a timeout costs more).
    fn failed_attempt(
        &mut self,
        now: Time,
        req: u32,
        answer: ServerAnswer,
        failure: QuotaFailure,
        q: &mut EventQueue<Event>,
    ) {
        let r = *self.reqs.get(req);
        let now_ns = ns(now);
        let token_ok = self
            .guards(r.layer, r.client)
            .is_none_or(|g| g.on_outcome(now_ns, false));
        let refusal = match self.layers[r.layer as usize].strategy.retry_policy() {
            None => Err(Refusal::Policy),
            Some(policy) => {
                let mut state = r.state;
                let d =
                    state.on_failure_with(&policy, ns(now - r.start), answer, &mut self.clients);
                self.reqs.get(req).state = state;
                match d {
                    RetryDecision::GiveUp(StopReason::ServerRefused) => Err(Refusal::Server),
                    RetryDecision::GiveUp(_) => Err(Refusal::Policy),
                    RetryDecision::Retry { delay_ns } => {
                        if !r.deadline.allows_attempt(now_ns, delay_ns, self.nominal_ns) {
                            Err(Refusal::Deadline)
                        } else {
                            match self.guards(r.layer, r.client) {
                                Some(g) => g
                                    .permit_retry(now_ns, token_ok, failure)
                                    .map(|taken| (delay_ns, taken)),
                                None => Ok((delay_ns, 0)),
                            }
                        }
                    }
                }
            }
        };
        match refusal {
            Ok((delay_ns, taken)) => {
                self.reqs.get(req).quota_taken = taken;
                if r.layer == 0 {
                    self.mark_retrying(req);
                }
                q.schedule(now.saturating_add(ps(delay_ns)), Event::Send(req));
            }
            // A service's refusal is its caller's failed attempt, counted there.
            Err(_) if r.layer > 0 => self.finish(now, req, false, q),
            Err(why) => {
                match why {
                    Refusal::Policy => self.counts.gave_up += 1,
                    Refusal::Deadline => self.counts.deadline += 1,
                    Refusal::Budget => self.counts.budget += 1,
                    Refusal::RetryBreaker => self.counts.retry_breaker += 1,
                    Refusal::Server => self.counts.refused += 1,
                }
                self.finish(now, req, false, q);
            }
        }
    }

    /// The client's request `req` has a retry scheduled: it is in the backlog of
    /// retrying requests until it ends.
    fn mark_retrying(&mut self, req: u32) {
        let i = req as usize;
        if i >= self.retrying.len() {
            self.retrying.resize(i + 1, false);
        }
        if !self.retrying[i] {
            self.retrying[i] = true;
            self.backlog += 1;
        }
    }

    /// The server answered job `j` at `now` with `outcome`; the answer reaches its
    /// caller half a round trip later (at once without one), and one nobody waits for
    /// any more is work done for nobody.
    fn server_answered(&mut self, now: Time, j: Job, outcome: Outcome, q: &mut EventQueue<Event>) {
        if outcome == Outcome::Dropped {
            // Never answered: the caller's timeout fires.
            return;
        }
        self.series.answered(
            now,
            outcome == Outcome::Success,
            matches!(outcome, Outcome::Rejected | Outcome::Overloaded),
        );
        let back = self.server.back();
        if !back.is_zero() {
            let (req, attempt) = (j.req, j.attempt);
            q.schedule(
                now + back,
                Event::Answer {
                    req,
                    attempt,
                    outcome,
                },
            );
        } else if !self.answer(now, j.req, j.attempt, outcome, q) && outcome == Outcome::Success {
            self.counts.wasted += 1;
        }
    }

    fn finish(&mut self, now: Time, req: u32, success: bool, q: &mut EventQueue<Event>) {
        let r = *self.reqs.get(req);
        if r.layer > 0 {
            // A service's call ended: it answers the attempt it serves.
            self.reqs.remove(req);
            let outcome = if success {
                Outcome::Success
            } else if self.layers[r.layer as usize].overloaded {
                Outcome::Overloaded
            } else {
                Outcome::Error
            };
            if !self.answer(now, r.parent, r.parent_attempt, outcome, q) && success {
                self.layers[r.layer as usize - 1].wasted += 1;
            }
            return;
        }
        if success {
            self.counts.succeeded += 1;
        }
        if self.retrying.get(req as usize).copied().unwrap_or(false) {
            self.retrying[req as usize] = false;
            self.backlog -= 1;
        }
        // The latency runs from when a client took the request up: a capped loop's
        // wait for a free client is measured apart (`wait_p50_ms`).
        self.series.completed(now, success, now - r.began);
        self.reqs.remove(req);
        let factor = self.load_factor(now);
        if let Next::WakeAt(t) = self.pop.on_end(now, r.client, &mut self.clients, factor) {
            if t < self.horizon {
                q.schedule(t, Event::Wake(r.client));
            }
        }
    }
}

impl Model for Storm {
    type Event = Event;

    fn handle(&mut self, now: Time, ev: Event, q: &mut EventQueue<Event>) -> bool {
        match ev {
            Event::Arrival => {
                let next = now.saturating_add(self.pop.next_gap(&mut self.arrivals));
                if next < self.horizon {
                    q.schedule(next, Event::Arrival);
                }
                if !self.keep_arrival(now) {
                    return true;
                }
                match self.pop.take_client(&mut self.arrivals) {
                    Some(c) => self.start_request(now, c, q),
                    None if self.pop.wait(now) => {
                        self.offer(now);
                        self.counts.waited += 1;
                        let line = self.pop.waiting() as u64;
                        self.counts.max_waiting = self.counts.max_waiting.max(line);
                    }
                    None => {
                        self.counts.offered += 1;
                        self.counts.turned_away += 1;
                        self.series.offered(now);
                        self.series.completed(now, false, Time::ZERO);
                    }
                }
            }
            Event::Wake(c) => match self.pop.taken(c) {
                Some(arrived) => self.begin(now, arrived, c, q),
                None => self.start_request(now, c, q),
            },
            Event::Send(req) if self.hedging.is_some() => {
                // A wake-up for the next hedge or the deadline; one for a call that
                // has ended (its slot free, or another call's now) changes nothing.
                if !self.hedges.get(req as usize).is_some_and(|s| s.active) {
                    return false;
                }
                self.hedge_poll(now, req, q);
            }
            Event::Send(req) => self.send(now, req, q),
            Event::Timeout { req, attempt } => {
                let r = self.reqs.get(req);
                if r.attempt != attempt || !r.outstanding {
                    return false; // answered already
                }
                r.outstanding = false;
                let (layer, client) = (r.layer, r.client);
                if layer == 0 {
                    self.counts.timeouts += 1;
                    self.series.attempt_ended(now, false);
                }
                if let Some(g) = self.guards(layer, client) {
                    g.on_response(ns(now), false);
                }
                self.failed_attempt(now, req, ServerAnswer::None, QuotaFailure::Timeout, q);
            }
            Event::Done { job, outcome } => {
                let j = self.server.done(now, job, outcome, q);
                self.server_answered(now, j, outcome, q);
            }
            Event::Answer {
                req,
                attempt,
                outcome,
            } => {
                if !self.answer(now, req, attempt, outcome, q) && outcome == Outcome::Success {
                    self.counts.wasted += 1;
                }
            }
            Event::Resume => self.server.resume(now, q),
            Event::Reach(job) => self.server.reach(now, job, q),
            Event::Progress { generation } => {
                let Some(j) = self.server.progress(now, generation, q) else {
                    return false; // the concurrency changed since
                };
                self.server_answered(now, j, Outcome::Success, q);
            }
            Event::Cancel { job, attempt } => {
                let Some(j) = self.server.cancel(now, job, attempt, q) else {
                    return false; // done before its deadline
                };
                self.server_answered(now, j, Outcome::Cancelled, q);
            }
        }
        self.series.level(
            now,
            self.server.concurrency(),
            self.server.queued() as u32,
            self.backlog,
        );
        true
    }
}

/// Run one storm configuration to its horizon.
///
/// ```
/// use retry_storm::{presets, run};
/// let sc = presets::scenario("partial", &presets::Options::default()).unwrap();
/// let r = run(&sc.runs[0]).unwrap();
/// assert!(r.events > 0 && r.counts.offered > 0);
/// ```
///
/// # Errors
///
/// The [`StormError`] of [`StormConfig::validate`]; nothing is run then.
pub fn run(cfg: &StormConfig) -> Result<StormResult, StormError> {
    run_with(cfg, &AtomicBool::new(false))
}

/// [`run`], looking at `cancel` every
/// [`CANCEL_EVERY`](sim_kit::engine::CANCEL_EVERY) events: a signal stops a run of any
/// horizon within milliseconds.
///
/// # Errors
///
/// As [`run`]; [`StormError::Interrupted`] once `cancel` is seen raised (no result).
pub fn run_with(cfg: &StormConfig, cancel: &AtomicBool) -> Result<StormResult, StormError> {
    cfg.validate()?;
    let (fitted, notes) = cfg.fitted();
    let cfg = &fitted;
    let seed = cfg.seed;
    let rng = |stream| XorShiftRng::seed_from_u64(split_seed(seed, stream));
    let triggers = Triggers::new(&cfg.triggers);
    let peak = triggers.peak_load_factor();
    let server = Server::new(cfg.server.clone(), triggers.clone(), rng(1));
    let pop = Population::new(cfg.load.clone(), &cfg.strategy, peak)?;
    let mut model = Storm {
        layers: crate::chain::layers(cfg)?,
        chained: !cfg.chain.is_empty(),
        window: cfg.trigger_window(),
        offered_during: 0,
        rejection: match cfg.server.reject_answer {
            RejectAnswer::Error => ServerAnswer::None,
            RejectAnswer::RetryAfter => ServerAnswer::RetryAfter {
                delay_ns: ns(cfg.server.retry_after_ps),
            },
            RejectAnswer::DoNotRetry => ServerAnswer::DoNotRetry,
        },
        horizon: cfg.horizon_ps,
        timeouts: cfg.timeouts_ps.clone(),
        users: cfg.users,
        nominal_ns: ns(cfg.server.service.mean_ps() + cfg.server.rtt_ps),
        pop,
        triggers,
        peak,
        reqs: Requests::default(),
        server,
        series: Series::new(
            cfg.bin_ps,
            cfg.horizon_ps,
            if cfg.chain.is_empty() {
                0
            } else {
                cfg.chain.len() + 1
            },
        ),
        backlog: 0,
        retrying: Vec::new(),
        waits: matches!(
            cfg.load,
            Load::Capped {
                when_busy: crate::config::WhenBusy::Wait { .. },
                ..
            }
        ),
        counts: Counts::default(),
        next_attempt: 0,
        arrivals: rng(2),
        clients: rng(3),
        hedging: cfg.strategy.hedge.map(|h| h.policy),
        hedges: Vec::new(),
    };
    let mut q = EventQueue::new();
    model.server.schedule_resume(&mut q);
    match cfg.load {
        Load::Open { .. } | Load::Capped { .. } => {
            let first = model.pop.next_gap(&mut model.arrivals);
            q.schedule(first, Event::Arrival);
        }
        Load::Closed { clients, .. } => {
            for c in 0..clients {
                let factor = model.load_factor(Time::ZERO);
                let t = model.pop.think(&mut model.clients, factor);
                q.schedule(t, Event::Wake(c));
            }
        }
    }
    let mut engine = Engine::with_queue(model, q);
    if !engine.run_until_or_cancelled(cfg.horizon_ps.saturating_sub(Time::from_ps(1)), cancel) {
        return Err(StormError::Interrupted);
    }
    let events = engine.events();
    let mut m = engine.into_model();
    let sc = m.server.counts();
    m.counts.cancelled = sc.cancelled;
    m.counts.served = sc.served;
    m.counts.rejected = sc.rejected;
    m.counts.dropped = sc.dropped;
    m.counts.expired = sc.expired;
    m.counts.error_work = sc.error_work;
    m.counts.in_flight = if m.chained {
        m.reqs.in_flight_at(0)
    } else {
        m.reqs.in_flight()
    } as u64
        + m.pop.waiting() as u64;
    let layers = crate::chain::loads(cfg, &m.layers, m.offered_during);
    let series = m.series.finish();
    let summary = summarise(
        &series,
        cfg.bin_ps,
        cfg.warmup_ps,
        cfg.trigger_window(),
        &cfg.recovery,
        notes,
    );
    Ok(StormResult {
        strategy: cfg.strategy.name.clone(),
        config: cfg.clone(),
        counts: m.counts,
        summary,
        series,
        events,
        layers,
    })
}
