//! The exact model's observation hook: the events it reports agree with the counters
//! of the same run, come in time order per station, and observing changes nothing.

use csma_cd::config::{RunConfig, Traffic};
use csma_cd::exact::{self, EventKind, Observer, TraceEvent};
use sim_kit::time::Time;

#[derive(Default)]
struct Record(Vec<TraceEvent>);

impl Observer for Record {
    fn observe(&mut self, e: &TraceEvent) {
        self.0.push(*e);
    }
}

fn count(events: &[TraceEvent], kind: EventKind) -> u64 {
    events.iter().filter(|e| e.kind == kind).count() as u64
}

fn check(cfg: &RunConfig) {
    let plain = exact::run(cfg).unwrap();
    let (r, Record(events)) = exact::run_with_observer(cfg, Record::default()).unwrap();
    // Observing must not change the run.
    assert_eq!(
        serde_json::to_string(&plain).unwrap(),
        serde_json::to_string(&r).unwrap()
    );
    assert_eq!(count(&events, EventKind::Transmit), r.attempts);
    assert_eq!(count(&events, EventKind::Collision), r.collided_attempts);
    assert_eq!(count(&events, EventKind::JamEnd), r.collided_attempts);
    assert_eq!(count(&events, EventKind::Success), r.conservation.delivered);
    assert_eq!(
        count(&events, EventKind::Drop),
        r.conservation.dropped_excessive
    );
    for e in &events {
        match e.kind {
            EventKind::Success => assert!(e.access_delay.is_some()),
            EventKind::Drop => assert_eq!(e.collisions, cfg.attempt_limit),
            _ => assert!(e.access_delay.is_none()),
        }
        assert!((e.station as usize) < cfg.stations as usize);
        assert!(e.time <= cfg.duration);
    }
    // A retry's slots lie in the truncated BEB range 0..2^min(c, 10).
    for e in events.iter().filter(|e| e.kind == EventKind::JamEnd) {
        if let Some(s) = e.backoff_slots {
            assert!(u64::from(s) < 1u64 << e.collisions.min(10));
        }
    }
    // Per station, events come in time order, except that a collision is reported
    // with the jam end that revealed it and carries its earlier detection time.
    for k in 0..cfg.stations {
        let mut last = Time::ZERO;
        for e in events.iter().filter(|e| e.station == k) {
            // A collision is detected after its transmission started.
            assert!(e.time >= last, "station {k}: {e:?} before {last:?}");
            if e.kind != EventKind::Collision {
                last = e.time;
            }
        }
    }
}

#[test]
fn saturated_events_match_the_counters() {
    let cfg = RunConfig {
        stations: 16,
        duration: Time::from_ms(50),
        ..RunConfig::default()
    };
    check(&cfg);
}

#[test]
fn poisson_events_match_the_counters_and_defer() {
    let cfg = RunConfig {
        stations: 8,
        duration: Time::from_ms(50),
        traffic: Traffic::Poisson { load: 0.9 },
        ..RunConfig::default()
    };
    check(&cfg);
    let (_, Record(events)) = exact::run_with_observer(&cfg, Record::default()).unwrap();
    assert!(
        count(&events, EventKind::Defer) > 0,
        "some station defers at 90 % load"
    );
}
