//! The driver and the channel on hand-made timelines and small networks. Every run
//! has a fixed seed; each threshold says why it holds for the model, not only for
//! the seed.

use radio_mac::MacConfig;

use super::*;
use crate::channel::{Arrival, Channel};
use crate::topology::Links;

const AIR: MacConfig = MacConfig::IEEE_802_15_4_2450;

fn config(pairs: &[(&str, &str)]) -> RadioConfig {
    let mut c = RadioConfig::default();
    c.set("rule", "beb").unwrap();
    for (k, v) in pairs {
        c.set(k, v).unwrap();
    }
    c
}

/// Three stations in a row, 1 hears 0 and 2 (0 at -60 dBm, 2 at -75 dBm); 0 and 2
/// do not hear each other.
fn line3() -> Links {
    let mut l = Links::new(3);
    l.link(0, 1, -60.0);
    l.link(2, 1, -75.0);
    l
}

/// Start a packet of `len` bytes from `src` at `at` (ns).
fn send(ch: &mut Channel, src: usize, at: u64, len: usize) -> u64 {
    ch.set_now(at);
    ch.transmit(src, &vec![0u8; len]).unwrap()
}

fn end(ch: &mut Channel, id: u64) -> Vec<(usize, Arrival)> {
    let t = ch.transmission(id).unwrap().end;
    ch.set_now(t);
    let (mut a, mut changed) = (Vec::new(), Vec::new());
    ch.end(id, &mut a, &mut changed);
    a
}

#[test]
fn overlapping_packets_collide_at_the_receiver_that_hears_both() {
    let mut ch = Channel::new(line3(), AIR, None, 0.0, 1);
    let a = send(&mut ch, 0, 0, 20);
    let b = send(&mut ch, 2, 100_000, 20);
    assert_eq!(end(&mut ch, a), [(1, Arrival::Collision)]);
    assert_eq!(end(&mut ch, b), [(1, Arrival::Collision)]);
    // Later, alone: intact; a packet that ends exactly when another starts does not
    // overlap it.
    let c = send(&mut ch, 0, 10_000_000, 20);
    let t = ch.transmission(c).unwrap().end;
    assert_eq!(end(&mut ch, c), [(1, Arrival::Intact { captured: false })]);
    let d = send(&mut ch, 2, t, 20);
    assert_eq!(end(&mut ch, d), [(1, Arrival::Intact { captured: false })]);
    let s = ch.stats();
    assert_eq!((s.collisions, s.intact, s.transmissions), (2, 2, 4));
}

#[test]
fn a_cca_threshold_senses_the_strong_transmission_and_receives_the_weak_one() {
    // Station 1 hears 0 at -60 dBm and 2 at -75 dBm; with the threshold at -70 dBm its
    // CCA sees only 0's transmissions, yet 2's packet still arrives intact.
    let mut ch = Channel::new(line3(), AIR, None, 0.0, 1).with_cca_threshold(Some(-70.0));
    let mut changed = Vec::new();
    let weak = send(&mut ch, 2, 0, 20);
    ch.make_visible(weak, &mut changed);
    assert!(changed.is_empty() && ch.is_clear(1));
    assert_eq!(
        end(&mut ch, weak),
        [(1, Arrival::Intact { captured: false })]
    );
    let strong = send(&mut ch, 0, 10_000_000, 20);
    ch.make_visible(strong, &mut changed);
    assert_eq!(changed, [1]);
    assert!(!ch.is_clear(1));
    end(&mut ch, strong);
    assert!(ch.is_clear(1));
    // Without a threshold, the weak one is sensed too.
    let mut ch = Channel::new(line3(), AIR, None, 0.0, 1);
    let weak = send(&mut ch, 2, 0, 20);
    ch.make_visible(weak, &mut changed);
    assert!(!ch.is_clear(1));
}

#[test]
fn a_threshold_above_every_link_turns_csma_into_aloha_and_collides_more() {
    // With every link at -60 dBm and the threshold above it, no station ever senses
    // another: the rule transmits blind, as ALOHA does. At 10 saturated senders that
    // at least doubles the conditional collision probability (Bianchi's p), which is
    // 0.2-0.4 with carrier sense and above 0.8 for blind transmissions at this load;
    // a factor of 2 leaves room for the seed's noise at 2 s.
    let base = config(&[("stations", "10"), ("duration", "2s"), ("warmup", "0s")]);
    let sensed = run(&base).unwrap();
    let mut deaf = base.clone();
    deaf.set("cca_threshold_dbm", "-50").unwrap();
    let blind = run(&deaf).unwrap();
    assert!(
        blind.collision_probability > 2.0 * sensed.collision_probability,
        "{} vs {}",
        blind.collision_probability,
        sensed.collision_probability
    );
    // At the links' power the threshold changes nothing: byte-identical results.
    let mut at = base.clone();
    at.set("cca_threshold_dbm", "-60").unwrap();
    let mut same = run(&at).unwrap();
    same.config = sensed.config.clone();
    // As JSON: the sink's mean delay is undefined (NaN), unequal to itself.
    let json = |r: &RadioResult| sim_kit::output::json::to_string(r);
    assert_eq!(json(&same), json(&sensed));
}

#[test]
fn capture_saves_the_packet_that_is_strong_enough() {
    // 0 is 15 dB above 2 at station 1: with capture at 10 dB it survives, 2's does not.
    let mut ch = Channel::new(line3(), AIR, Some(10.0), 0.0, 1);
    let a = send(&mut ch, 0, 0, 20);
    let b = send(&mut ch, 2, 50_000, 20);
    assert_eq!(end(&mut ch, a), [(1, Arrival::Intact { captured: true })]);
    assert_eq!(end(&mut ch, b), [(1, Arrival::Collision)]);
    // At 20 dB neither survives.
    let mut ch = Channel::new(line3(), AIR, Some(20.0), 0.0, 1);
    let a = send(&mut ch, 0, 0, 20);
    send(&mut ch, 2, 50_000, 20);
    assert_eq!(end(&mut ch, a), [(1, Arrival::Collision)]);
    assert_eq!(ch.stats().captures, 0);
}

#[test]
fn a_receiver_that_transmits_misses_what_it_would_hear() {
    let mut ch = Channel::new(line3(), AIR, None, 0.0, 1);
    let a = send(&mut ch, 0, 0, 40);
    // 1 sends during 0's packet (to 2): 0 and 2 hear 1's packet intact, 1 misses 0's.
    let b = send(&mut ch, 1, 200_000, 9);
    assert_eq!(
        end(&mut ch, b),
        [
            (0, Arrival::HalfDuplex),
            (2, Arrival::Intact { captured: false })
        ]
    );
    assert_eq!(end(&mut ch, a), [(1, Arrival::HalfDuplex)]);
    assert_eq!(ch.stats().half_duplex_losses, 2);
}

#[test]
fn random_loss_is_per_receiver_at_the_given_rate() {
    // Station 0 heard by 1 and 2, 20 000 packets one after another at loss 0.3: the
    // share lost is 0.3 within 0.01 (about 7 standard deviations of a binomial with
    // 40 000 trials, sd 0.0023), and the two receivers' losses are independent:
    // both lost in 0.09 within 0.01 (sd 0.002).
    let mut l = Links::new(3);
    l.link(0, 1, -60.0);
    l.link(0, 2, -60.0);
    let mut ch = Channel::new(l, AIR, None, 0.3, 7);
    let (mut lost, mut both) = (0, 0);
    let mut t = 0;
    for _ in 0..20_000 {
        let id = send(&mut ch, 0, t, 20);
        t = ch.transmission(id).unwrap().end;
        let a = end(&mut ch, id);
        let n = a
            .iter()
            .filter(|(_, x)| matches!(x, Arrival::Lost { .. }))
            .count();
        lost += n;
        both += usize::from(n == 2);
    }
    let share = lost as f64 / 40_000.0;
    assert!((share - 0.3).abs() < 0.01, "{share}");
    assert!((both as f64 / 20_000.0 - 0.09).abs() < 0.01, "{both}");
    assert_eq!(ch.stats().random_losses, lost as u64);
}

#[test]
fn carrier_sense_sees_a_transmission_from_its_visible_instant_to_its_end() {
    let mut ch = Channel::new(line3(), AIR, None, 0.0, 1);
    let a = send(&mut ch, 0, 0, 20);
    assert!(ch.is_clear(1), "not yet visible");
    let mut changed = Vec::new();
    ch.set_now(AIR.sifs_ns());
    ch.make_visible(a, &mut changed);
    assert_eq!(changed, [1]);
    assert!(!ch.is_clear(1));
    assert!(ch.is_clear(2), "2 does not hear 0");
    end(&mut ch, a);
    assert!(ch.is_clear(1));
}

#[test]
fn every_delivered_frame_arrives_exactly_once_even_when_acks_are_lost() {
    // 20 % loss on every packet: about a fifth of the ACKs are lost, so senders
    // retransmit frames their receiver already has. Delivered frames must have
    // arrived exactly once; duplicates must be suppressed (hundreds are expected:
    // about 0.2 * 0.8 of ~1500 attempts; 50 is far below).
    let c = config(&[
        ("stations", "5"),
        ("loss", "0.2"),
        ("to", "neighbour"),
        ("duration", "3s"),
        ("warmup", "0s"),
    ]);
    let r = run(&c).unwrap();
    assert_eq!(r.exactly_once_violations, 0);
    assert!(r.duplicates_suppressed > 50, "{}", r.duplicates_suppressed);
    // One exchange (data 2.1 ms, SIFS, ACK 0.5 ms, interframe space 0.8 ms) takes
    // 3.6 ms at least: 830 in 3 s without loss or backoff; 300 leaves room for both.
    assert!(r.delivered > 300, "{}", r.delivered);
    // Every frame that ended is delivered or dropped by a kind of the MAC.
    let d = r.drops;
    assert_eq!(
        r.ended,
        r.delivered + d.no_ack + d.channel_busy + d.radio_error
    );
    let per: u64 = r.per_station.iter().map(|s| s.delivered).sum();
    assert_eq!(per, r.delivered);
}

#[test]
fn poisson_frames_are_offered_queued_dropped_or_ended() {
    // An overload (G = 3) with a queue of 4: queue drops happen; every offered frame
    // is either queue-dropped, ended or still waiting (at most queue + 1 per sender).
    let c = config(&[
        ("stations", "6"),
        ("traffic", "poisson"),
        ("load", "3"),
        ("queue", "4"),
        ("duration", "2s"),
        ("warmup", "0s"),
    ]);
    let r = run(&c).unwrap();
    assert!(r.drops.queue > 0);
    let waiting = r.offered - r.drops.queue - r.ended;
    assert!(waiting <= 5 * 5, "{waiting}");
    assert_eq!(r.exactly_once_violations, 0);
}

#[test]
fn the_same_seed_gives_the_same_result_and_another_seed_another() {
    let c = config(&[
        ("stations", "12"),
        ("topology", "random"),
        ("traffic", "poisson"),
        ("load", "0.5"),
        ("to", "neighbour"),
        ("loss", "0.05"),
        ("capture_db", "6"),
        ("duration", "1s"),
        ("warmup", "100ms"),
    ]);
    let a = sim_kit::output::json::to_string(&run(&c).unwrap());
    let b = sim_kit::output::json::to_string(&run(&c).unwrap());
    assert_eq!(a, b);
    let mut other = c.clone();
    other.seed = 2;
    assert_ne!(a, sim_kit::output::json::to_string(&run(&other).unwrap()));
}

#[test]
fn a_saturated_pair_needs_about_as_many_attempts_as_on_radio_macs_channel() {
    // radio-mac's tests/integration/channel.rs, `hidden_terminals`: two saturated senders A and C
    // sending 32-byte frames to B, all hearing each other, carrier sense on, beb:
    // it prints 1.01 attempts per frame (and asserts < 1.3). The same network here
    // (the sink is B) must give the same within a few percent: collisions happen
    // only when both start within the 192 us CCA delay, rare with 2 senders whose
    // backoffs are drawn from a window of at least 2 slots after each busy channel.
    // The bounds [1.0, 1.05] hold for the model: a frame needs at least one attempt,
    // and the radio-mac channel's 16 us time step can only add collisions, not
    // remove them.
    let c = config(&[
        ("stations", "3"),
        ("payload", "32"),
        ("duration", "10s"),
        ("warmup", "0s"),
    ]);
    let r = run(&c).unwrap();
    println!(
        "saturated pair, beb: {:.4} attempts per frame, p = {:.4}, S = {:.3}",
        r.attempts_per_frame, r.collision_probability, r.throughput
    );
    assert!(
        r.attempts_per_frame >= 1.0 && r.attempts_per_frame < 1.05,
        "{r:?}"
    );
    assert!(r.delivery_ratio > 0.99);
    // The hidden-terminal line (A and C hidden from each other) collides more.
    let hidden = run_on(&c, line3_for_sink()).unwrap();
    println!(
        "hidden pair, beb: {:.4} attempts per frame, p = {:.4}",
        hidden.attempts_per_frame, hidden.collision_probability
    );
    assert!(hidden.collision_probability > r.collision_probability);
}

/// The sink 0 between 1 and 2, which do not hear each other.
fn line3_for_sink() -> Links {
    let mut l = Links::new(3);
    l.link(1, 0, -60.0);
    l.link(2, 0, -60.0);
    l
}

#[test]
fn a_station_out_of_its_destinations_range_sends_nothing() {
    // A line to the sink: only station 1 hears station 0.
    let c = config(&[
        ("stations", "4"),
        ("topology", "line"),
        ("duration", "200ms"),
        ("warmup", "0s"),
    ]);
    let r = run(&c).unwrap();
    assert_eq!(r.senders, 1);
    assert_eq!(r.per_station[2].offered, 0);
    assert!(r.per_station[1].delivered > 0);
}

#[test]
fn a_lone_sender_is_polled_at_exactly_the_macs_instants() {
    // One saturated sender and the sink: every frame takes the interframe space
    // (192 + 2 x 320 us), its air time ((50 + 9 + 6) x 8 bits at 250 kb/s = 2080 us),
    // SIFS (192 us) and the ACK ((9 + 6) x 8 bits = 480 us): 3584 us, with no backoff
    // and no collision. A driver that polled late (a time step, a missed deadline)
    // would add to it; the histogram's buckets are within 0.4 %.
    let c = config(&[("stations", "2"), ("duration", "1s"), ("warmup", "0s")]);
    let r = run(&c).unwrap();
    let exchange_us = 832.0 + 2080.0 + 192.0 + 480.0;
    assert_eq!(r.delay.max_us, exchange_us);
    assert!(
        (r.delay.p50_us - exchange_us).abs() / exchange_us < 0.004,
        "{:?}",
        r.delay
    );
    assert_eq!(r.attempts, r.ended);
    // 1 s holds 279 whole exchanges: S = 279 x 2080 us / 1 s.
    assert_eq!(r.delivered, 279);
    assert!(
        (r.throughput - 279.0 * 2080e-6).abs() < 1e-9,
        "{}",
        r.throughput
    );
}
