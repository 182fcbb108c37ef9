//! Triggers: what goes wrong during the trigger window, as the server sees it.

use rand_core::Rng;

use crate::config::{Trigger, TriggerKind};
use sim_kit::time::Time;

/// What the server does with a request that arrives now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Serve it normally.
    Serve,
    /// Answer with an error at once.
    Fail,
}

/// The trigger of a run (or none), with the questions the server asks it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triggers {
    trigger: Option<Trigger>,
}

impl Triggers {
    /// Wrap a run's trigger.
    pub fn new(trigger: Option<Trigger>) -> Self {
        Self { trigger }
    }

    fn active(&self, now: Time) -> Option<TriggerKind> {
        self.trigger
            .filter(|t| (t.start_ps..t.end_ps).contains(&now))
            .map(|t| t.kind)
    }

    /// The fate of a request of `user` arriving at `now`. Draws from `rng` only for a
    /// partial failure inside its window.
    #[inline]
    pub fn fate<R: Rng + ?Sized>(&self, now: Time, user: u32, rng: &mut R) -> Fate {
        match self.active(now) {
            Some(TriggerKind::Outage) => Fate::Fail,
            Some(TriggerKind::Partial { fraction }) => {
                // 53 uniform bits in [0, 1): fraction 0 never fails, 1 always does.
                let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                if u < fraction {
                    Fate::Fail
                } else {
                    Fate::Serve
                }
            }
            Some(TriggerKind::Shard { shards, failing }) if user % shards == failing => Fate::Fail,
            _ => Fate::Serve,
        }
    }

    /// The pause window, if the trigger is a pause.
    pub fn pause(&self) -> Option<(Time, Time)> {
        self.trigger
            .filter(|t| t.kind == TriggerKind::Pause)
            .map(|t| (t.start_ps, t.end_ps))
    }

    /// Whether the server is paused at `now`.
    #[inline]
    pub fn paused(&self, now: Time) -> bool {
        self.pause().is_some_and(|(s, e)| (s..e).contains(&now))
    }

    /// When `work` of service begun at `start` is done, with the server's time frozen
    /// during a pause.
    ///
    /// ```
    /// use retry_storm::config::{Trigger, TriggerKind};
    /// use retry_storm::triggers::Triggers;
    /// use sim_kit::time::Time;
    /// let ms = Time::from_ms;
    /// let t = Triggers::new(Some(Trigger { start_ps: ms(100), end_ps: ms(200), kind: TriggerKind::Pause }));
    /// assert_eq!(t.frozen_end(ms(50), ms(30)), ms(80)); // before the pause
    /// assert_eq!(t.frozen_end(ms(50), ms(80)), ms(230)); // straddles it: +100
    /// assert_eq!(t.frozen_end(ms(150), ms(10)), ms(210)); // starts inside: counts from its end
    /// ```
    #[inline]
    pub fn frozen_end(&self, start: Time, work: Time) -> Time {
        let end = start.saturating_add(work);
        match self.pause() {
            Some((ps, pe)) if start < pe && end > ps => {
                if start < ps {
                    end.saturating_add(pe - ps)
                } else {
                    pe.saturating_add(work)
                }
            }
            _ => end,
        }
    }
}
