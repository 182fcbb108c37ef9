//! Triggers: what goes wrong during each trigger's window, as the server and the
//! clients see it. Windows may overlap; their effects then combine (the first failing
//! trigger decides a request's fate, capacity losses add up, load spikes multiply).

use rand_core::Rng;

use crate::config::{ErrorWork, Trigger, TriggerKind};
use sim_kit::time::Time;

/// What the server does with a request that arrives now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fate {
    /// Serve it normally.
    Serve,
    /// Answer with an error: with the failing trigger's own error work, if it has
    /// any (else the server's default applies).
    Fail(Option<ErrorWork>),
}

/// The triggers of a run, with the questions the server and the clients ask them.
#[derive(Clone, Debug, PartialEq)]
pub struct Triggers {
    /// Triggers that fail requests (outage, partial, shard).
    failing: Vec<Trigger>,
    /// Pause windows, by start.
    pauses: Vec<(Time, Time)>,
    /// Capacity losses: window and fraction of workers lost.
    losses: Vec<(Time, Time, f64)>,
    /// Load spikes: window and factor.
    spikes: Vec<(Time, Time, f64)>,
    /// Windows in which every request is answered "overloaded, do not retry".
    overloads: Vec<(Time, Time)>,
    /// Slowdowns: window, time added, probability.
    slows: Vec<(Time, Time, Time, f64)>,
}

impl Triggers {
    /// Sort a run's triggers by what they act on.
    pub fn new(triggers: &[Trigger]) -> Self {
        let mut t = Self {
            failing: Vec::new(),
            pauses: Vec::new(),
            losses: Vec::new(),
            spikes: Vec::new(),
            overloads: Vec::new(),
            slows: Vec::new(),
        };
        for &tr in triggers {
            let w = (tr.start_ps, tr.end_ps);
            match tr.kind {
                TriggerKind::Pause => t.pauses.push(w),
                TriggerKind::CapacityLoss { fraction } => t.losses.push((w.0, w.1, fraction)),
                TriggerKind::LoadSpike { factor } => t.spikes.push((w.0, w.1, factor)),
                TriggerKind::Overloaded => t.overloads.push(w),
                TriggerKind::Slow { added, fraction } => t.slows.push((w.0, w.1, added, fraction)),
                TriggerKind::Outage | TriggerKind::Partial { .. } | TriggerKind::Shard { .. } => {
                    t.failing.push(tr)
                }
            }
        }
        t.pauses.sort_unstable();
        t
    }

    /// The fate of a request of `user` arriving at `now`. Draws from `rng` only for a
    /// partial failure inside its window.
    #[inline]
    pub fn fate<R: Rng + ?Sized>(&self, now: Time, user: u32, rng: &mut R) -> Fate {
        for t in &self.failing {
            if !(t.start_ps..t.end_ps).contains(&now) {
                continue;
            }
            let fails = match t.kind {
                TriggerKind::Outage => true,
                TriggerKind::Partial { fraction } => {
                    // 53 uniform bits in [0, 1): fraction 0 never fails, 1 always does.
                    let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                    u < fraction
                }
                TriggerKind::Shard { shards, failing } => user % shards == failing,
                _ => false,
            };
            if fails {
                return Fate::Fail(t.error_work);
            }
        }
        Fate::Serve
    }

    /// The time added to the service of a request that starts at `now` (the slow
    /// triggers whose window holds it, each drawn with its probability).
    #[inline]
    pub fn added<R: Rng + ?Sized>(&self, now: Time, rng: &mut R) -> Time {
        let mut added = Time::ZERO;
        for &(s, e, a, fraction) in &self.slows {
            if !(s..e).contains(&now) {
                continue;
            }
            let hit = fraction >= 1.0 || {
                let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                u < fraction
            };
            if hit {
                added = added.saturating_add(a);
            }
        }
        added
    }

    /// Whether a request arriving at `now` is answered "overloaded, do not retry"
    /// (before any other failing trigger is asked).
    #[inline]
    pub fn overloaded(&self, now: Time) -> bool {
        self.overloads.iter().any(|&(s, e)| (s..e).contains(&now))
    }

    /// When something ends that lets a waiting server start work again: the ends of
    /// pauses and capacity losses.
    pub fn resumes(&self) -> impl Iterator<Item = Time> + '_ {
        self.pauses
            .iter()
            .map(|p| p.1)
            .chain(self.losses.iter().map(|l| l.1))
    }

    /// Whether the server is paused at `now`.
    #[inline]
    pub fn paused(&self, now: Time) -> bool {
        self.pauses.iter().any(|&(s, e)| (s..e).contains(&now))
    }

    /// The workers left at `now` of `workers`: capacity losses in their windows take
    /// away their fraction (rounded), together never more than all.
    #[inline]
    pub fn workers(&self, now: Time, workers: u32) -> u32 {
        if self.losses.is_empty() {
            return workers;
        }
        let lost: f64 = self
            .losses
            .iter()
            .filter(|l| (l.0..l.1).contains(&now))
            .map(|l| l.2)
            .sum();
        let lost = (f64::from(workers) * lost.min(1.0)).round() as u32;
        workers - lost.min(workers)
    }

    /// Whether any trigger changes the offered load.
    pub fn has_spikes(&self) -> bool {
        !self.spikes.is_empty()
    }

    /// The offered load's factor at `now` (the product of the spikes in their window).
    #[inline]
    pub fn load_factor(&self, now: Time) -> f64 {
        self.spikes
            .iter()
            .filter(|s| (s.0..s.1).contains(&now))
            .map(|s| s.2)
            .product()
    }

    /// The largest factor the load reaches (at least 1): spikes that overlap multiply.
    pub fn peak_load_factor(&self) -> f64 {
        self.spikes
            .iter()
            .map(|s| self.load_factor(s.0))
            .fold(1.0, f64::max)
    }

    /// When `work` of service begun at `start` is done, with the server's time frozen
    /// during pauses.
    ///
    /// ```
    /// use retry_storm::config::{Trigger, TriggerKind};
    /// use retry_storm::triggers::Triggers;
    /// use sim_kit::time::Time;
    /// let ms = Time::from_ms;
    /// let pause = |a, b| Trigger { start_ps: ms(a), end_ps: ms(b), kind: TriggerKind::Pause, error_work: None };
    /// let t = Triggers::new(&[pause(100, 200)]);
    /// assert_eq!(t.frozen_end(ms(50), ms(30)), ms(80)); // before the pause
    /// assert_eq!(t.frozen_end(ms(50), ms(80)), ms(230)); // straddles it: +100
    /// assert_eq!(t.frozen_end(ms(150), ms(10)), ms(210)); // starts inside: counts from its end
    /// let two = Triggers::new(&[pause(300, 400), pause(100, 200)]);
    /// assert_eq!(two.frozen_end(ms(50), ms(200)), ms(450)); // across both
    /// ```
    #[inline]
    pub fn frozen_end(&self, start: Time, work: Time) -> Time {
        let (mut t, mut left) = (start, work);
        for &(ps, pe) in &self.pauses {
            if pe <= t {
                continue;
            }
            if t >= ps {
                t = pe;
            } else if t.saturating_add(left) <= ps {
                break;
            } else {
                left -= ps - t;
                t = pe;
            }
        }
        t.saturating_add(left)
    }

    /// The time from `a` to `b` during which the server was not paused (the inverse of
    /// [`Triggers::frozen_end`]: work begun at `a` is done at `b` if it took this long).
    ///
    /// ```
    /// use retry_storm::config::{Trigger, TriggerKind};
    /// use retry_storm::triggers::Triggers;
    /// use sim_kit::time::Time;
    /// let ms = Time::from_ms;
    /// let pause = |a, b| Trigger { start_ps: ms(a), end_ps: ms(b), kind: TriggerKind::Pause, error_work: None };
    /// let t = Triggers::new(&[pause(100, 200), pause(150, 300)]);
    /// assert_eq!(t.active_between(ms(50), ms(80)), ms(30));
    /// assert_eq!(t.active_between(ms(50), ms(350)), ms(100)); // 200 ms paused
    /// assert_eq!(t.active_between(ms(120), ms(250)), Time::ZERO);
    /// assert_eq!(t.frozen_end(ms(50), t.active_between(ms(50), ms(350))), ms(350));
    /// ```
    #[inline]
    pub fn active_between(&self, a: Time, b: Time) -> Time {
        let mut active = b.saturating_sub(a);
        // Pauses are sorted by start: `seen` is where the paused time taken away ends.
        let mut seen = a;
        for &(ps, pe) in &self.pauses {
            let (s, e) = (ps.max(seen), pe.min(b));
            if e > s {
                active -= e - s;
                seen = e;
            }
        }
        active
    }
}
