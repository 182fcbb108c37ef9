//! The deference rules of IEEE 802.3 clause 4.2.3.2.1 (and the Pascal model's
//! `Deference` process, clause 4.2.8) on hand-computed timelines, each against the
//! model's earlier restarting rule where the two part.
//!
//! The stage, in bit times at 10 Mb/s (1 bit = 100 ns), on a 3200 m cable (160 bits
//! end to end), 64-byte frames (preamble + frame = 576 bits), a fixed backoff window
//! of one slot (every retry after r = 0 slots, so that nothing is random):
//!
//! * stations O1 and O2 at position 0 start at 0: they collide at once, finish the
//!   preamble (64) and jam to 96;
//! * station B at position 5 gets its frame at 50, senses O's carrier (there since 5)
//!   and defers; O's tails pass it at 101, so its gap starts at 101: part 1 until 165,
//!   the end of the gap at 197;
//! * station S at position 160 starts at `s` (O's front reaches it only at 160), so its
//!   front reaches B at `s + 155` and position 0 at `s + 160`; it detects O at 160 and
//!   jams to 192. The cable is busy without a break from 0 to 192.
//! * O1 and O2 end their own transmission at 96 with the carrier gone from position
//!   0: their gap is timed blind, and they retry at 96 + 96 = 192.

use csma_cd::config::{BackoffAlgorithm, FrameSizes, IfgRule, RunConfig};
use csma_cd::exact::CsmaCd;
use sim_kit::engine::Engine;
use sim_kit::time::Time;

/// One picosecond, the clock's resolution.
const PS: Time = Time::from_ps(1);
/// One bit time at 10 Mb/s.
const BIT: Time = Time::from_ps(100_000);

/// Attempts started by each of the times `at` (bit times), with S starting at `s`.
fn attempts_by(rule: IfgRule, s: u64, at: &[Time]) -> Vec<u64> {
    let cfg = RunConfig {
        stations: 4,
        bus_length_m: 3200.0,
        frames: FrameSizes::Fixed(64),
        backoff: BackoffAlgorithm::Fixed { window: 1 },
        ifg_rule: rule,
        duration: Time::from_ms(1),
        ..RunConfig::default()
    };
    let positions = [Time::ZERO, Time::ZERO, 5 * BIT, 160 * BIT];
    let starts = [Time::ZERO, Time::ZERO, 50 * BIT, s * BIT];
    let (m, q) = CsmaCd::new_staged(&cfg, &positions, &starts).unwrap();
    let mut e = Engine::with_queue(m, q);
    at.iter()
        .map(|&t| {
            e.run_until(t);
            e.model().attempts()
        })
        .collect()
}

/// S starts at 0: its front reaches B at 155, inside part 1 of B's gap (101..165).
/// B goes back to deferring until S's tail passes at 192 + 155 = 347, times a new
/// gap (part 1 to 411, free) and transmits at 443. Meanwhile O1 and O2 retry at 192
/// and S (whose gap starts when O's first tails pass it at 256) at 352.
#[test]
fn carrier_in_part_one_sends_the_station_back_to_deferring() {
    let got = attempts_by(
        IfgRule::Ieee8023,
        0,
        &[
            197 * BIT,
            352 * BIT - PS,
            352 * BIT,
            443 * BIT - PS,
            443 * BIT,
        ],
    );
    // O1, O2, S; O1 and O2 again at 192; B not at 197; S at 352; B at 443.
    assert_eq!(got, vec![5, 5, 6, 6, 7]);
}

/// S starts at 20: its front reaches B at 175, in part 2 of B's gap (165..197). B
/// ignores it and transmits when the gap ends, at 197, and collides.
#[test]
fn carrier_in_part_two_is_ignored_and_the_station_collides() {
    let times = [197 * BIT - PS, 197 * BIT, 197 * BIT + 64 * BIT];
    let got = attempts_by(IfgRule::Ieee8023, 20, &times);
    assert_eq!(got, vec![5, 6, 6], "B transmits at exactly 197");
    // Under the restarting rule B waits for the end of the busy period and a gap.
    let old = attempts_by(IfgRule::Restart, 20, &times);
    assert_eq!(old[1], old[0], "restart: B does not transmit at 197");
}

/// S starts at 20: its front reaches position 0 at 180, inside the gap O1 and O2 time
/// after their own transmission (96..192). They transmit at exactly 192 all the same;
/// under the restarting rule they sense S's carrier at 192 and defer.
#[test]
fn after_its_own_transmission_a_station_waits_exactly_the_gap() {
    let times = [192 * BIT - PS, 192 * BIT];
    assert_eq!(attempts_by(IfgRule::Ieee8023, 20, &times), vec![3, 5]);
    assert_eq!(attempts_by(IfgRule::Restart, 20, &times), vec![3, 3]);
}

/// S starts at 50: the cable is busy without a break from 0 to 192, but at B the
/// carrier drops from 101 until S's front arrives at 205. B's gap starts at that drop
/// and it transmits at 197. Under the restarting rule B waits for the end of the whole
/// busy period (S's tail passes B at 347) plus a gap.
#[test]
fn a_carrier_gap_inside_a_collision_starts_the_gap() {
    let times = [197 * BIT - PS, 197 * BIT];
    // O1, O2 and S; O1 and O2 again at 192 (S's front reaches 0 only at 210); B at 197.
    assert_eq!(attempts_by(IfgRule::Ieee8023, 50, &times), vec![5, 6]);
    assert_eq!(attempts_by(IfgRule::Restart, 50, &times), vec![5, 5]);
    let late = attempts_by(IfgRule::Restart, 50, &[443 * BIT - PS, 443 * BIT]);
    assert_eq!(late[1], late[0] + 1, "restart: B transmits at 347 + 96");
}

/// Staged positions are checked.
#[test]
fn staged_positions_must_fit() {
    let cfg = RunConfig {
        stations: 2,
        ..RunConfig::default()
    };
    let starts = [Time::ZERO; 2];
    for positions in [
        vec![Time::ZERO],
        vec![BIT, Time::ZERO],
        vec![Time::ZERO, 1000 * BIT],
    ] {
        let err = CsmaCd::new_staged(&cfg, &positions, &starts).err();
        assert_eq!(err, Some(csma_cd::ConfigError::Positions));
    }
}
