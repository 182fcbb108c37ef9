//! What the page reads from a [`Session`], as JSON texts and flat number arrays:
//! events with their explanations, the stations' states, the signals in a window of
//! time, and the live numbers for the charts.
//!
//! Times are integer picoseconds, exact in a JavaScript number up to 2^53 ps (about
//! 2.5 simulated hours).

use csma_cd::TraceEvent;
use serde_json::{Value, json};
use sim_kit::Time;

use crate::explain::explain;
use crate::recorder::{Activity, Cause};
use crate::session::Session;

/// Events `from..` (counted from the run's start), at most `max`, as a JSON array:
/// the trace's columns (`time_ps`, `station`, `kind`, `collisions`,
/// `backoff_slots`, `frame_bits`, `access_delay_ps`) plus `i` (the index) and, for
/// a transmission that waited out a gap, `gap_start_ps`. Events older than the
/// recorder keeps are skipped. The explanation is [`explanation`]'s (written only
/// for the event a user asks about).
pub fn events(s: &Session, from: u64, max: u64) -> Value {
    let r = s.recorder();
    let start = from.max(r.first_event());
    let end = r.total_events().min(start.saturating_add(max));
    let out: Vec<Value> = (start..end)
        .filter_map(|i| r.event(i).map(|e| (i, e)))
        .map(|(i, rec)| {
            let e: &TraceEvent = &rec.event;
            let gap = match rec.cause {
                Cause::AfterGap { gap_start }
                | Cause::InPartTwo { gap_start, .. }
                | Cause::Blind { gap_start, .. } => Some(gap_start.as_ps()),
                _ => None,
            };
            json!({
                "i": i,
                "time_ps": e.time.as_ps(),
                "station": e.station,
                "kind": e.kind.name(),
                "collisions": e.collisions,
                "backoff_slots": e.backoff_slots,
                "frame_bits": e.frame_bits,
                "access_delay_ps": e.access_delay.map(Time::as_ps),
                "gap_start_ps": gap,
            })
        })
        .collect();
    Value::Array(out)
}

/// What happened at event `i` and why (`why`, `clause`), if the event is still
/// kept.
pub fn explanation(s: &Session, i: u64) -> Option<Value> {
    let rec = s.recorder().event(i)?;
    let (why, clause) = explain(rec, s.rules());
    Some(json!({ "why": why, "clause": clause }))
}

/// Each station's state now, as a JSON array: `state` (`idle`, `deferring`,
/// `transmitting`, `jamming`, `backoff`, `ready` (its backoff is over, it waits
/// for the gap or transmits at once), `dropped`), `since_ps`, `collisions`,
/// `window`, `r` and, while backing off, `remaining_slots`.
///
/// A transmitting station that has detected a collision is `jamming` from the
/// detection on (the model reports the collision only when the jam ends).
pub fn states(s: &Session) -> Value {
    let now = s.now();
    let slot = s.timing().slot;
    let r = s.recorder();
    let out: Vec<Value> = (0u32..)
        .zip(r.states())
        .map(|(k, st)| {
            let mut since = st.since;
            let (state, remaining) = match st.activity {
                Activity::Idle => ("idle", None),
                Activity::Deferring => ("deferring", None),
                Activity::Transmitting => match r.detected(k, now) {
                    Some(at) => {
                        since = at;
                        ("jamming", None)
                    }
                    None => ("transmitting", None),
                },
                Activity::Jamming => ("jamming", None),
                Activity::BackingOff { until } if until > now => {
                    ("backoff", Some((until - now).div_ceil(slot)))
                }
                Activity::BackingOff { .. } => ("ready", None),
                Activity::Dropped => ("dropped", None),
            };
            json!({
                "state": state,
                "since_ps": since.as_ps(),
                "collisions": st.collisions,
                "window": st.window,
                "r": st.drawn,
                "remaining_slots": remaining,
            })
        })
        .collect();
    Value::Array(out)
}

/// The signals that can be seen on the cable between `from` and `to`, flat:
/// per signal `station, start_ps, end_ps, collision_ps` (−1 for none yet). A
/// signal still on carries its collision from the instant it was detected.
pub fn signals(s: &Session, from: Time, to: Time) -> Vec<f64> {
    let reach = s.timing().max_prop;
    let (r, now) = (s.recorder(), s.now());
    let mut out = Vec::new();
    for sig in r.signals_back_to(from) {
        if sig.start > to || sig.end.is_some_and(|e| e + reach < from) {
            continue;
        }
        let collision = match sig.end {
            None => sig.collision_at.or_else(|| r.detected(sig.station, now)),
            Some(_) => sig.collision_at,
        };
        out.extend([
            f64::from(sig.station),
            sig.start.as_ps_f64(),
            sig.end.map_or(-1.0, Time::as_ps_f64),
            collision.map_or(-1.0, Time::as_ps_f64),
        ]);
    }
    out
}

/// The numbers the live charts draw, at the current instant: the run's results
/// so far (`result`, as `mac-sim run --json` names them), the delivered bits per
/// two-hundredth of the duration (`series_bits`), each station's successes
/// (`successes`), and the clock.
pub fn live(s: &Session) -> Value {
    let r = s.recorder();
    json!({
        "now_ps": s.now().as_ps(),
        "duration_ps": s.config().duration.as_ps(),
        "done": s.done(),
        "events": s.engine_events(),
        "recorded": r.total_events(),
        "result": s.result_json(),
        "series_bits": r.series_bits(),
        "successes": r.successes(),
        "bit_rate": s.config().phy.bit_rate,
    })
}

/// The fixed layout of the run, for the diagram: the stations' positions
/// (`positions_ps`), the end-to-end delay, the bit, slot, gap (and its first part),
/// preamble and jam times, all picoseconds, whether the jam starts at once on a
/// collision (`jam_immediate`, else after the preamble), and the number of stations.
pub fn layout(s: &Session) -> Value {
    let t = s.timing();
    let positions: Vec<u64> = s
        .recorder()
        .layout()
        .positions
        .iter()
        .map(|p| p.as_ps())
        .collect();
    json!({
        "stations": s.config().stations,
        "positions_ps": positions,
        "max_prop_ps": t.max_prop.as_ps(),
        "bit_ps": t.bit.as_ps(),
        "slot_ps": t.slot.as_ps(),
        "ifg_ps": t.ifg.as_ps(),
        "ifg_part1_ps": t.ifg_part1.as_ps(),
        "preamble_ps": t.preamble.as_ps(),
        "jam_ps": t.jam.as_ps(),
        "jam_immediate": s.config().jam_rule == csma_cd::JamRule::Immediate,
        "duration_ps": s.config().duration.as_ps(),
        "length_m": s.config().bus_length_m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use csma_cd::EventKind;
    use csma_cd::Scenario;
    use csma_cd::{TraceFormat, TraceWriter};

    fn scenario(kv: &[(&str, &str)]) -> Scenario {
        let mut sc = Scenario::default();
        for (k, v) in kv {
            sc.set(k, v).unwrap();
        }
        sc
    }

    /// Every event of the whole run, as the model reports them.
    fn trace_events(sc: &Scenario) -> Vec<TraceEvent> {
        #[derive(Default)]
        struct All(Vec<TraceEvent>);
        impl csma_cd::Observer for All {
            fn observe(&mut self, e: &TraceEvent) {
                self.0.push(*e);
            }
        }
        let cfg = sc.to_config().unwrap();
        csma_cd::run_with_observer(&cfg, All::default())
            .unwrap()
            .1
            .0
    }

    /// The events the page lists are the lines of `mac-sim run --trace FILE.csv`,
    /// column for column; each has its sentence and clause.
    #[test]
    fn events_are_the_csv_trace() {
        let sc = scenario(&[
            ("stations", "6"),
            ("load", "0.9"),
            ("frames", "64:7,594:4,1518:1"),
            ("duration", "4ms"),
        ]);
        let w = TraceWriter::new(Vec::new(), TraceFormat::Csv).unwrap();
        let (_, w) = csma_cd::run_with_observer(&sc.to_config().unwrap(), w).unwrap();
        let csv = String::from_utf8(w.finish().unwrap()).unwrap();
        let lines: Vec<&str> = csv.lines().skip(1).collect();
        let mut s = Session::new(&sc).unwrap();
        s.run_to_end();
        let v = events(&s, 0, u64::MAX);
        let got = v.as_array().unwrap();
        assert_eq!(got.len(), lines.len());
        let text = |x: &Value| {
            if x.is_null() {
                String::new()
            } else {
                x.to_string()
            }
        };
        for (i, (e, line)) in got.iter().zip(&lines).enumerate() {
            let row = [
                e["time_ps"].to_string(),
                e["station"].to_string(),
                e["kind"].as_str().unwrap().to_string(),
                e["collisions"].to_string(),
                text(&e["backoff_slots"]),
                e["frame_bits"].to_string(),
                text(&e["access_delay_ps"]),
            ]
            .join(",");
            assert_eq!(row, *line, "event {i}");
            assert_eq!(e["i"], i);
            let x = explanation(&s, i as u64).unwrap();
            assert!(x["why"].as_str().unwrap().len() > 20, "{x}");
            assert!(x["clause"].as_str().unwrap().starts_with("4.2"), "{x}");
            // A gap start only for a transmission that waited out a gap, one gap
            // before it.
            if let Some(g) = e["gap_start_ps"].as_u64() {
                assert_eq!(e["kind"], "transmit");
                let ifg = s.timing().ifg.as_ps();
                assert_eq!(g + ifg, e["time_ps"].as_u64().unwrap(), "{e}");
            }
        }
        assert!(got.iter().any(|e| e["gap_start_ps"].is_u64()));
        // Pages of the list are slices of it.
        let page = events(&s, 10, 5);
        assert_eq!(page.as_array().unwrap()[..], got[10..15]);
        assert_eq!(events(&s, got.len() as u64, 5), json!([]));
        assert_eq!(explanation(&s, got.len() as u64), None);
    }

    /// What a station is doing at `now`, from the whole run's events alone: its
    /// latest event that the page has seen (a collision is reported with the end of
    /// its jam), and a collision detected during a transmission not yet over.
    fn expected_state(
        events: &[TraceEvent],
        k: u32,
        now: Time,
        slot: Time,
    ) -> (String, Time, Option<u64>, Option<u64>, Option<u32>) {
        let mine: Vec<&TraceEvent> = events.iter().filter(|e| e.station == k).collect();
        let mut latest: Option<usize> = None;
        let (mut window, mut r) = (None, None);
        for (i, e) in mine.iter().enumerate() {
            let seen_at = if e.kind == EventKind::Collision {
                mine[i + 1].time
            } else {
                e.time
            };
            if seen_at > now {
                break;
            }
            latest = Some(i);
            match (e.kind, e.backoff_slots) {
                (EventKind::JamEnd, Some(slots)) => {
                    window = Some(1u64 << e.collisions.min(10));
                    r = Some(slots);
                }
                (EventKind::Success | EventKind::Drop, _) => (window, r) = (None, None),
                _ => {}
            }
        }
        let Some(i) = latest else {
            return ("idle".into(), Time::ZERO, None, None, None);
        };
        let e = mine[i];
        let state = match e.kind {
            EventKind::Transmit => {
                // Detected, if the next event of this transmission is its collision.
                match mine.get(i + 1) {
                    Some(c) if c.kind == EventKind::Collision && c.time <= now => {
                        return ("jamming".into(), c.time, None, window, r);
                    }
                    _ => "transmitting",
                }
            }
            EventKind::Defer => "deferring",
            EventKind::JamEnd => {
                let until = e.time + slot * u64::from(e.backoff_slots.unwrap());
                if until > now {
                    let left = (until - now).as_ps().div_ceil(slot.as_ps());
                    return ("backoff".into(), e.time, Some(left), window, r);
                }
                "ready"
            }
            EventKind::Success => "idle",
            EventKind::Drop => "dropped",
            EventKind::Collision => unreachable!("followed by its jam's end"),
        };
        (state.into(), e.time, None, window, r)
    }

    /// Station states and the collisions of signals still on, at many instants of
    /// runs driven by odd slices of time, against the whole run's events.
    #[test]
    fn states_and_signals_follow_the_run() {
        for kv in [
            &[("stations", "2"), ("length_m", "1000"), ("duration", "3ms")][..],
            &[
                ("stations", "8"),
                ("placement", "random"),
                ("duration", "3ms"),
            ][..],
            &[
                ("stations", "5"),
                ("attempt_limit", "2"),
                ("duration", "2ms"),
            ][..],
        ] {
            let sc = scenario(kv);
            let all = trace_events(&sc);
            let mut s = Session::new(&sc).unwrap();
            let slot = s.timing().slot;
            let mut seen = std::collections::BTreeSet::new();
            let mut i = 0u64;
            while !s.done() {
                // 0.7 us and odd picoseconds: instants inside preambles, jams, gaps
                // and backoffs.
                s.advance(Time::from_ps(700_001 + 13 * (i % 7)));
                i += 1;
                let now = s.now();
                let v = states(&s);
                for (k, st) in (0u32..).zip(v.as_array().unwrap()) {
                    let (state, since, left, window, r) = expected_state(&all, k, now, slot);
                    assert_eq!(
                        st["state"],
                        state.as_str(),
                        "{kv:?} station {k} at {now:?}: {st}"
                    );
                    assert_eq!(st["since_ps"], since.as_ps(), "{kv:?} {k} {now:?}: {st}");
                    assert_eq!(st["remaining_slots"].as_u64(), left, "{k} {now:?}: {st}");
                    assert_eq!(st["window"].as_u64(), window, "{k} {now:?}: {st}");
                    assert_eq!(st["r"].as_u64(), r.map(u64::from), "{k} {now:?}: {st}");
                    seen.insert(state);
                }
                // A signal still on shows its collision from the instant the model
                // will report it.
                let sig = signals(&s, Time::ZERO, now);
                for x in sig.chunks(4) {
                    let (k, start, end, coll) = (x[0] as u32, x[1], x[2], x[3]);
                    if end >= 0.0 {
                        continue;
                    }
                    let next = all
                        .iter()
                        .skip_while(|e| {
                            !(e.station == k
                                && e.kind == EventKind::Transmit
                                && e.time.as_ps_f64() == start)
                        })
                        .find(|e| e.station == k && e.kind != EventKind::Transmit);
                    let det = next
                        .filter(|e| e.kind == EventKind::Collision)
                        .map(|e| e.time.as_ps_f64())
                        .filter(|&t| t <= now.as_ps_f64());
                    assert_eq!(
                        (coll >= 0.0).then_some(coll),
                        det,
                        "{kv:?} station {k} at {now:?}"
                    );
                }
            }
            for state in ["transmitting", "jamming", "backoff"] {
                assert!(seen.contains(state), "{kv:?}: never {state}: {seen:?}");
            }
        }
    }

    /// Stepping to a collision: a station whose collision is reported has just
    /// ended its jam and backs off, `remaining_slots` at most its `r`, in the
    /// window 2^min(c, 10). The other station may be jamming already: the model
    /// reports its collision only when its jam ends, and the page shows it from its
    /// detection on. On a 1000 m bus (5 us end to end) that happens after a
    /// delivery: the sender starts its next frame one gap after its last bit, the
    /// other one gap after that bit reached it; the later one detects at once and
    /// ends its jam 9.6 us later, while the sender detected 10 us after its start.
    #[test]
    fn stepping_to_a_collision_shows_the_jam_and_the_backoff() {
        let sc = scenario(&[
            ("stations", "2"),
            ("length_m", "1000"),
            ("duration", "20ms"),
        ]);
        let mut s = Session::new(&sc).unwrap();
        let mut jamming = 0;
        let mut backing_off = 0;
        for _ in 0..40 {
            let from = s.recorder().total_events();
            s.step_to_collision();
            if s.done() {
                break;
            }
            let now = s.now();
            let v = states(&s);
            let reported: Vec<u32> = (from..s.recorder().total_events())
                .filter_map(|i| s.recorder().event(i))
                .filter(|r| r.event.kind == EventKind::JamEnd)
                .map(|r| r.event.station)
                .collect();
            assert!(!reported.is_empty());
            for (k, st) in (0u32..).zip(v.as_array().unwrap()) {
                let state = st["state"].as_str().unwrap();
                if reported.contains(&k) {
                    let c = st["collisions"].as_u64().unwrap();
                    let r = st["r"].as_u64().unwrap();
                    assert_eq!(st["window"].as_u64(), Some(1 << c.min(10)), "{st}");
                    assert!(r < 1 << c.min(10));
                    if r == 0 {
                        assert_eq!(state, "ready", "{st}");
                    } else {
                        assert_eq!(state, "backoff", "{st}");
                        let left = st["remaining_slots"].as_u64().unwrap();
                        assert!(left <= r && left > 0, "{st}");
                        backing_off += 1;
                    }
                    assert_eq!(st["since_ps"], now.as_ps());
                } else {
                    // (Its own collision may have been reported by the previous step:
                    // then it backs off already.)
                    if state == "jamming" {
                        jamming += 1;
                        // The model reports that collision, at that time, when the
                        // jam ends.
                        let since = st["since_ps"].as_u64().unwrap();
                        let mut later = Session::new(&sc).unwrap();
                        later.advance(now);
                        while later.recorder().states()[k as usize].activity
                            == Activity::Transmitting
                        {
                            later.step();
                        }
                        let r = later.recorder();
                        let c = (0..r.total_events())
                            .filter_map(|i| r.event(i))
                            .rfind(|e| e.event.station == k && e.event.kind == EventKind::Collision)
                            .unwrap();
                        assert_eq!(c.event.time.as_ps(), since);
                    }
                }
            }
        }
        assert!(jamming > 0, "no station seen jamming");
        assert!(backing_off > 0, "no station seen backing off");
    }

    /// The live numbers and the layout agree with the run's result and geometry.
    #[test]
    fn live_numbers_and_layout() {
        let sc = scenario(&[("stations", "5"), ("duration", "5ms"), ("warmup", "1ms")]);
        let all = trace_events(&sc);
        let mut s = Session::new(&sc).unwrap();
        s.run_to_end();
        let v = live(&s);
        assert_eq!(v["done"], true);
        assert_eq!(v["result"], s.result_json());
        let bits: u64 = all
            .iter()
            .filter(|e| e.kind == EventKind::Success)
            .map(|e| u64::from(e.frame_bits))
            .sum();
        let series: u64 = v["series_bits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(series, bits, "the series counts the warm-up too");
        for k in 0..5u32 {
            let n = all
                .iter()
                .filter(|e| e.station == k && e.kind == EventKind::Success)
                .count();
            assert_eq!(v["successes"][k as usize], n);
        }
        let l = layout(&s);
        let cfg = s.config();
        let pos = csma_cd::positions(cfg, s.timing().max_prop);
        let got: Vec<u64> = l["positions_ps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(got, pos.iter().map(|p| p.as_ps()).collect::<Vec<_>>());
        assert_eq!(l["ifg_ps"], 9_600_000);
        assert_eq!(l["ifg_part1_ps"], 6_400_000);
        assert_eq!(l["slot_ps"], 51_200_000);
    }
}
