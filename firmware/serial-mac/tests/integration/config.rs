//! Every parameter the MAC cannot use is refused with an error that says why.

use serial_mac::config::{ConfigErrorKind, DEFAULT_INTERFRAME_GAP, DEFAULT_SLOT};
use serial_mac::{Address, MacConfig};

#[test]
fn defaults_follow_from_the_baud_rate() {
    let c = MacConfig::new(Address(7), 9_600).unwrap();
    assert_eq!(c.byte_time_ns(), 1_041_667); // 10 bits at 9600 baud, rounded up
    assert_eq!(
        (c.interframe_gap(), c.slot(), c.rx_timeout()),
        (DEFAULT_INTERFRAME_GAP, DEFAULT_SLOT, DEFAULT_INTERFRAME_GAP)
    );
    assert_eq!(c.slot_time().as_nanos(), 8 * 1_041_667);
    assert_eq!(c.beb(), backoff_core::BebConfig::IEEE_802_3);
    // The slowest and fastest rates still give a usable byte time.
    assert_eq!(
        MacConfig::new(Address(1), 1).unwrap().byte_time_ns(),
        4_294_967_295
    );
    assert_eq!(
        MacConfig::new(Address(1), u32::MAX).unwrap().byte_time_ns(),
        3
    );
}

#[test]
fn bad_parameters_are_refused_with_their_kind() {
    let kind = |r: Result<MacConfig, serial_mac::config::ConfigError>| r.unwrap_err().kind();
    assert_eq!(
        kind(MacConfig::new(Address::BROADCAST, 9_600)),
        ConfigErrorKind::BroadcastAddress
    );
    assert_eq!(
        kind(MacConfig::new(Address(1), 0)),
        ConfigErrorKind::ZeroByteTime
    );
    assert_eq!(
        kind(MacConfig::with_byte_time_ns(Address(1), 0)),
        ConfigErrorKind::ZeroByteTime
    );
    let ok = MacConfig::new(Address(1), 9_600).unwrap();
    assert_eq!(kind(ok.with_slot(0)), ConfigErrorKind::ZeroInterval);
    assert_eq!(
        kind(ok.with_interframe_gap(0)),
        ConfigErrorKind::ZeroInterval
    );
    assert_eq!(kind(ok.with_echo_timeout(0)), ConfigErrorKind::ZeroInterval);
    assert_eq!(kind(ok.with_rx_timeout(0)), ConfigErrorKind::ZeroInterval);
    for e in [
        MacConfig::new(Address::BROADCAST, 1).unwrap_err(),
        MacConfig::new(Address(1), 0).unwrap_err(),
        ok.with_slot(0).unwrap_err(),
    ] {
        assert!(!e.to_string().is_empty());
    }
    // A jam of zero bytes and no deferral limit are legitimate choices.
    let quiet = ok.with_jam(0, 0xFF).with_defer_limit(0);
    assert_eq!(
        (quiet.jam_len(), quiet.jam_byte(), quiet.defer_limit()),
        (0, 0xFF, 0)
    );
}
