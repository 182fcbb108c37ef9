//! The channel-access rule: how a station decides when its data frame goes on the
//! air, and what it does after a busy channel or a missing ACK.
//!
//! Three named rules, chosen with [`MacConfig::with_access`](crate::MacConfig::with_access):
//!
//! * [`ChannelAccess::Ieee802154Unslotted`] (**the default** of
//!   [`MacConfig::IEEE_802_15_4_2450`](crate::MacConfig::IEEE_802_15_4_2450), and so of
//!   every [`MacConfig::new`](crate::MacConfig::new)): IEEE 802.15.4-2020's unslotted
//!   CSMA-CA, clause 6.2.5.1, with its parameters in [`CsmaCa`]. The crate's timing is
//!   that PHY's (the 320 µs unit backoff period), so its access rule is too.
//! * [`ChannelAccess::Beb`]: the project's earlier rule, IEEE 802.3 truncated binary
//!   exponential backoff after a missing ACK and after a busy channel, behind an
//!   interframe space of clear channel.
//! * `ChannelAccess::DcfLike` (with the cargo feature `dcf`): IEEE 802.11-2020's DCF
//!   (clause 10.3), simplified, with its parameters in [`Dcf`]: the rule Bianchi's
//!   model describes (G. Bianchi, "Performance analysis of the IEEE 802.11
//!   distributed coordination function", IEEE JSAC 18(3), 2000). Behind a feature so
//!   that a board on the default rule does not carry its code.
//!
//! Every parameter type is validated when it is built (`new`, `const`), so a
//! [`ChannelAccess`] is always valid and
//! [`MacConfig::with_access`](crate::MacConfig::with_access) cannot fail.

use crate::error::{ConfigError, ConfigErrorKind};

/// How a station gets the channel for a data frame (see the [module docs](self)).
/// ACKs are never subject to it: an owed ACK is sent SIFS after its frame, without
/// carrier sense, and a data frame waits while one is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ChannelAccess {
    /// IEEE 802.15.4-2020 unslotted CSMA-CA (clause 6.2.5.1, the unslotted branch of
    /// the figure "CSMA-CA algorithm"), the default. For each attempt of a frame:
    /// `NB = 0`, `BE = macMinBE`; wait a uniform `random(0 ..= 2^BE - 1)` unit backoff
    /// periods (the [slot](crate::MacConfig::slot)); one CCA; clear: transmit; busy:
    /// `NB += 1`, `BE = min(BE + 1, macMaxBE)`, and if `NB > macMaxCSMABackoffs` the
    /// frame ends as a channel access failure
    /// ([`DropReason::ChannelBusy`](crate::DropReason::ChannelBusy)), else back off
    /// again. No ACK within the [ACK timeout](crate::MacConfig::ack_timeout_ns): if
    /// fewer than `macMaxFrameRetries` retries were made, retry with a fresh CSMA-CA;
    /// else [`DropReason::NoAck`](crate::DropReason::NoAck): at most
    /// `1 + macMaxFrameRetries` attempts.
    ///
    /// The ACK timeout is the crate's (SIFS + the ACK's air time + one slot, 992 µs on
    /// the 2.4 GHz PHY), not the standard's `macAckWaitDuration` (54 symbols, 864 µs):
    /// that figure is computed for the standard's 5-byte Imm-Ack, while this crate's
    /// ACK is 9 bytes (a CRC-protected header, see [`frame`](crate::frame)) and the MAC
    /// sees an ACK only once it is complete, 672 µs after the data frame ended.
    Ieee802154Unslotted(CsmaCa),
    /// The project's earlier rule: the channel must be clear for the interframe space
    /// (SIFS + 2 slots), then the frame is sent; IEEE 802.3 truncated binary
    /// exponential backoff ([`backoff_core`]) after a busy channel
    /// ([`MacConfig::busy_rule`](crate::MacConfig::busy_rule), its own count) and after a
    /// missing ACK ([`MacConfig::beb`](crate::MacConfig::beb), whose attempt limit is
    /// the retry limit). Not a published MAC: a named option, kept for comparisons and
    /// for the figures measured with it.
    Beb,
    /// IEEE 802.11-2020's DCF (clause 10.3), simplified and named so (cargo feature
    /// `dcf`): the rule of
    /// Bianchi's model (JSAC 18(3), 2000). Before every attempt (the first one too)
    /// the station draws a counter uniform in `[0, W_i - 1]`, `W_i = 2^i W` at backoff
    /// stage `i` (`W` = [`Dcf::cw_min`], `i` capped at [`Dcf::max_stage`]); the counter
    /// counts down the idle slots that follow DIFS (= the interframe space, SIFS +
    /// 2 slots) and is frozen while the medium is busy; at zero the frame goes. A
    /// missing ACK moves to the next stage; after [`Dcf::retry_limit`] retries the
    /// frame ends as [`DropReason::NoAck`](crate::DropReason::NoAck). Exact slot
    /// arithmetic: [`MacCore::poll`](crate::MacCore::poll). Simplified against the
    /// standard: no RTS/CTS, no NAV, no EIFS, one access category, a window
    /// `2^i W` (Bianchi's) rather than `2^i (CWmin + 1) - 1`, and an ACK timeout of
    /// SIFS + one slot to the ACK's start (IEEE 802.11's `ACKTimeout`), then the
    /// crate's full ACK timeout if the channel is busy then.
    #[cfg(feature = "dcf")]
    DcfLike(Dcf),
}

impl ChannelAccess {
    /// The default rule: IEEE 802.15.4 unslotted CSMA-CA with the standard's default
    /// parameters ([`CsmaCa::IEEE_802_15_4`]).
    pub const DEFAULT: Self = Self::Ieee802154Unslotted(CsmaCa::IEEE_802_15_4);
}

impl Default for ChannelAccess {
    fn default() -> Self {
        Self::DEFAULT
    }
}

const fn refuse<T>(kind: ConfigErrorKind) -> Result<T, ConfigError> {
    Err(ConfigError::new(kind))
}

/// The parameters of IEEE 802.15.4 unslotted CSMA-CA (the MAC PIB attributes of
/// IEEE 802.15.4-2020 clause 8.4.3.1, table 8-94), within the standard's ranges.
///
/// ```
/// use radio_mac::CsmaCa;
/// let c = CsmaCa::new(3, 5, 4, 3).unwrap();
/// assert_eq!(c, CsmaCa::IEEE_802_15_4);
/// assert!(CsmaCa::new(6, 5, 4, 3).is_err()); // macMinBE > macMaxBE
/// assert!(CsmaCa::new(3, 9, 4, 3).is_err()); // macMaxBE above 8
/// assert!(CsmaCa::new(3, 5, 6, 3).is_err()); // macMaxCSMABackoffs above 5
/// assert!(CsmaCa::new(3, 5, 4, 8).is_err()); // macMaxFrameRetries above 7
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CsmaCa {
    min_be: u8,
    max_be: u8,
    max_csma_backoffs: u8,
    max_frame_retries: u8,
}

impl CsmaCa {
    /// The standard's defaults: macMinBE = 3, macMaxBE = 5, macMaxCSMABackoffs = 4,
    /// macMaxFrameRetries = 3.
    pub const IEEE_802_15_4: Self = Self {
        min_be: 3,
        max_be: 5,
        max_csma_backoffs: 4,
        max_frame_retries: 3,
    };

    /// macMinBE, macMaxBE, macMaxCSMABackoffs and macMaxFrameRetries.
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::BackoffExponent`] unless `min_be <= max_be` and `max_be` is
    /// in `3..=8`; [`ConfigErrorKind::CsmaBackoffs`] above 5;
    /// [`ConfigErrorKind::FrameRetries`] above 7 (the standard's ranges).
    pub const fn new(
        min_be: u8,
        max_be: u8,
        max_csma_backoffs: u8,
        max_frame_retries: u8,
    ) -> Result<Self, ConfigError> {
        if min_be > max_be || max_be < 3 || max_be > 8 {
            return refuse(ConfigErrorKind::BackoffExponent);
        }
        if max_csma_backoffs > 5 {
            return refuse(ConfigErrorKind::CsmaBackoffs);
        }
        if max_frame_retries > 7 {
            return refuse(ConfigErrorKind::FrameRetries);
        }
        Ok(Self {
            min_be,
            max_be,
            max_csma_backoffs,
            max_frame_retries,
        })
    }

    /// macMinBE: the backoff exponent of an attempt's first backoff.
    pub const fn min_be(&self) -> u8 {
        self.min_be
    }

    /// macMaxBE: the largest backoff exponent.
    pub const fn max_be(&self) -> u8 {
        self.max_be
    }

    /// macMaxCSMABackoffs: busy CCAs an attempt survives (the next one is a channel
    /// access failure): an attempt makes at most `macMaxCSMABackoffs + 1` CCAs.
    pub const fn max_csma_backoffs(&self) -> u8 {
        self.max_csma_backoffs
    }

    /// macMaxFrameRetries: retries after a missing ACK (attempts =
    /// `1 + macMaxFrameRetries` at most).
    pub const fn max_frame_retries(&self) -> u8 {
        self.max_frame_retries
    }
}

/// The parameters of the simplified DCF (`ChannelAccess::DcfLike`, cargo feature
/// `dcf`), in Bianchi's terms: `W`, `m`, and a retry limit.
///
/// ```
/// use radio_mac::Dcf;
/// let d = Dcf::new(32, 5, 6).unwrap();
/// assert_eq!((d.cw_min(), d.max_stage(), d.retry_limit()), (32, 5, 6));
/// assert_eq!(d.window(0), 32);
/// assert_eq!(d.window(7), 32 << 5); // the window stops doubling at stage m = 5
/// assert!(Dcf::new(0, 5, 6).is_err());
/// assert!(Dcf::new(32, 17, 6).is_err());
/// // Bianchi's unlimited retries, approximately:
/// assert!(Dcf::new(32, 5, u32::MAX).is_ok());
/// // The standard's countdown, one step fewer per busy period than Bianchi's:
/// use radio_mac::Countdown;
/// assert_eq!(d.countdown(), Countdown::VirtualSlots);
/// assert_eq!(d.with_countdown(Countdown::IdleSlots).countdown(), Countdown::IdleSlots);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Dcf {
    cw_min: u16,
    max_stage: u8,
    retry_limit: u32,
    countdown: Countdown,
}

/// How the DCF's backoff counter counts down ([`Dcf::with_countdown`]).
///
/// Both freeze the counter while the medium is busy; they differ by one step per busy
/// period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Countdown {
    /// Bianchi (2000), section III: the counter steps once per *slot time* of his
    /// model, and a slot time is either an empty slot or a busy period (a success or a
    /// collision, with the DIFS after it). A station whose counter was frozen by
    /// another's transmission has counted that busy period as one step. The default:
    /// it is the rule Bianchi's fixed point describes.
    VirtualSlots,
    /// IEEE 802.11-2020, clause 10.3.4.3: only idle slots after a DIFS count; a busy
    /// period takes no step. Each busy period then costs every waiting station one
    /// more empty slot: with `W` = 32 and `m` = 5 the saturation throughput is 5-7 %
    /// below Bianchi's formula for 5 to 50 stations (the collision probability
    /// hardly changes).
    IdleSlots,
}

impl Dcf {
    /// Bianchi's example parameters with IEEE 802.11's short retry limit: `W = 32`,
    /// `m = 5`, 7 retries.
    pub const BIANCHI: Self = Self {
        cw_min: 32,
        max_stage: 5,
        retry_limit: 7,
        countdown: Countdown::VirtualSlots,
    };

    /// `cw_min` = `W`, the window of stage 0 (counters in `[0, W - 1]`); `max_stage` =
    /// `m`, the stage at which the window stops doubling; `retry_limit`: a frame is
    /// dropped after `retry_limit + 1` attempts (`u32::MAX` approximates Bianchi's
    /// unlimited retries).
    ///
    /// # Errors
    ///
    /// [`ConfigErrorKind::ZeroWindow`] for `cw_min = 0`;
    /// [`ConfigErrorKind::MaxStage`] for `max_stage` above 16 (the largest window,
    /// `2^m W`, must fit in 32 bits).
    pub const fn new(cw_min: u16, max_stage: u8, retry_limit: u32) -> Result<Self, ConfigError> {
        if cw_min == 0 {
            return refuse(ConfigErrorKind::ZeroWindow);
        }
        if max_stage > 16 {
            return refuse(ConfigErrorKind::MaxStage);
        }
        Ok(Self {
            cw_min,
            max_stage,
            retry_limit,
            countdown: Countdown::VirtualSlots,
        })
    }

    /// The same with the counter counting down as `countdown` says (by default
    /// [`Countdown::VirtualSlots`], Bianchi's rule).
    #[must_use]
    pub const fn with_countdown(self, countdown: Countdown) -> Self {
        Self { countdown, ..self }
    }

    /// How the counter counts down.
    pub const fn countdown(&self) -> Countdown {
        self.countdown
    }

    /// `W`: the window of stage 0.
    pub const fn cw_min(&self) -> u16 {
        self.cw_min
    }

    /// `m`: the last stage at which the window doubles.
    pub const fn max_stage(&self) -> u8 {
        self.max_stage
    }

    /// Retries after a missing ACK before the frame is dropped.
    pub const fn retry_limit(&self) -> u32 {
        self.retry_limit
    }

    /// `W_i = 2^min(i, m) W`: the window at backoff stage `i` (the counter is drawn
    /// from `[0, W_i - 1]`).
    pub const fn window(&self, stage: u32) -> u32 {
        let i = if stage < self.max_stage as u32 {
            stage
        } else {
            self.max_stage as u32
        };
        (self.cw_min as u32) << i
    }
}
