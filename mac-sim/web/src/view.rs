//! What the page reads from a [`Session`], as JSON texts and flat number arrays:
//! events with their explanations, the stations' states, the signals in a window of
//! time, and the live numbers for the charts.
//!
//! Times are integer picoseconds, exact in a JavaScript number up to 2^53 ps (about
//! 2.5 simulated hours).

use csma_cd::exact::observe::TraceEvent;
use serde_json::{Value, json};
use sim_kit::time::Time;

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
/// `transmitting`, `jamming`, `backoff`, `dropped`), `since_ps`, `collisions`,
/// `window`, `r` and, while backing off, `remaining_slots`.
pub fn states(s: &Session) -> Value {
    let now = s.now();
    let slot = s.timing().slot;
    let out: Vec<Value> = s
        .recorder()
        .states()
        .iter()
        .map(|st| {
            let (state, remaining) = match st.activity {
                Activity::Idle => ("idle", None),
                Activity::Deferring => ("deferring", None),
                Activity::Transmitting => ("transmitting", None),
                Activity::Jamming => ("jamming", None),
                Activity::BackingOff { until } if until > now => {
                    ("backoff", Some((until - now).div_ceil(slot)))
                }
                Activity::BackingOff { .. } => ("ready", None),
                Activity::Dropped => ("dropped", None),
            };
            json!({
                "state": state,
                "since_ps": st.since.as_ps(),
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
/// per signal `station, start_ps, end_ps, collision_ps` (−1 for none yet).
pub fn signals(s: &Session, from: Time, to: Time) -> Vec<f64> {
    let reach = s.timing().max_prop;
    let mut out = Vec::new();
    for sig in s.recorder().signals_back_to(from) {
        if sig.start > to || sig.end.is_some_and(|e| e + reach < from) {
            continue;
        }
        out.extend([
            f64::from(sig.station),
            sig.start.as_ps_f64(),
            sig.end.map_or(-1.0, Time::as_ps_f64),
            sig.collision_at.map_or(-1.0, Time::as_ps_f64),
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
/// preamble and jam times, all picoseconds, and the number of stations.
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
        "duration_ps": s.config().duration.as_ps(),
        "length_m": s.config().bus_length_m,
    })
}
