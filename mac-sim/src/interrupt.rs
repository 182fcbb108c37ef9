//! Signals: SIGINT (Ctrl-C), SIGTERM (what `timeout`, Slurm's time limit and systemd
//! send) and SIGHUP (the terminal closed) stop `run`, `sweep`, `storm`, `radio`,
//! `merge` and `bench` the same way, and the exit status tells which one came: 128 +
//! its number (130, 143, 129; [`crate::failure`]).
//!
//! * **The first signal** raises [`flag`], which every long computation looks at: the
//!   command stops, removes its temporaries, publishes nothing and exits with the
//!   signal's status. A results database keeps the runs it had finished. Outputs are
//!   published only through `sim_host::temporaries::gate`, which reads the flag
//!   under its lock, so a signal after the work but before the publication publishes
//!   nothing too, and one after the publication changes nothing (the command finishes
//!   and exits 0).
//! * **A second signal** (any of the three) quits at once, with its own status: it
//!   waits for a publication under way, removes every temporary of the process (the
//!   hidden `.NAME.partial-HOST-PID-N` files and folders) and exits; nothing is published
//!   after it. A database being written keeps its finished runs (SQLite's journal,
//!   beside it, completes or undoes the last transaction when it is next opened).
//! * **Work that cannot look at the flag** (`merge`, a bench measurement in this
//!   process) is stopped at once by the first signal, the same way ([`Stop::AtOnce`]).
//!
//! The signals are received on a thread of their own by `signal-hook` (no handler code
//! of ours runs inside the signal); on systems without them, Ctrl-C by `ctrlc`.
//!
//! For tests, `MAC_SIM_TEST_PAUSE_BEFORE_PUBLISH` (set to anything) makes the command
//! stop just before it publishes, after its work, say so on standard error and wait
//! until its standard input is closed: a test can then send a signal at that exact
//! instant (a late signal) with no timing involved.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

use sim_host::{Abandoned, temporaries};

use crate::note;

/// A signal that stops the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGHUP (1): the terminal closed.
    Hangup,
    /// SIGINT (2): Ctrl-C.
    Interrupt,
    /// SIGTERM (15): `kill`, `timeout`, a batch system's time limit, systemd.
    Terminate,
}

impl Signal {
    const ALL: [Self; 3] = [Self::Hangup, Self::Interrupt, Self::Terminate];

    /// The signal's number (the same on every Unix).
    pub fn number(self) -> i32 {
        match self {
            Self::Hangup => 1,
            Self::Interrupt => 2,
            Self::Terminate => 15,
        }
    }

    /// Its name, as `kill -l` spells it with the prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hangup => "SIGHUP",
            Self::Interrupt => "SIGINT",
            Self::Terminate => "SIGTERM",
        }
    }

    /// The exit status of a command it stopped: 128 + its number, as a shell reports
    /// a process the signal killed.
    pub fn status(self) -> u8 {
        128 + self.number() as u8
    }

    fn from_number(n: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.number() == n)
    }
}

/// How the first signal stops the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The command looks at [`flag`]: the first signal raises it, a second quits at
    /// once.
    Cooperative,
    /// The work cannot look at the flag: the first signal quits at once.
    AtOnce,
}

static CANCEL: AtomicBool = AtomicBool::new(false);
/// Whether the first signal's note is on standard error; held while it is written,
/// so that the note comes once, and before the command's last line.
static NOTED: Mutex<bool> = Mutex::new(false);
/// The number of the first signal received, 0 before.
static RECEIVED: AtomicI32 = AtomicI32::new(0);
static AT_ONCE: AtomicBool = AtomicBool::new(false);

/// Receive the three signals from now on, stopping as `stop` says; call it before the
/// command makes any temporary. Only the first call installs; each sets how to stop.
pub fn install(stop: Stop) {
    set_stop(stop);
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        if std::env::var_os(PAUSE_VAR).is_some() {
            temporaries::before_gate(pause_before_publishing);
        }
        if let Err(e) = receive() {
            note(&format!(
                "mac-sim: warning: signals will not stop the command cleanly: {e}"
            ));
        }
    });
}

/// From now on, stop as `stop` says (a command that starts work the flag cannot stop
/// switches to [`Stop::AtOnce`]).
pub fn set_stop(stop: Stop) {
    AT_ONCE.store(stop == Stop::AtOnce, Ordering::SeqCst);
}

/// The cancel flag, raised by the first signal.
pub fn flag() -> &'static AtomicBool {
    &CANCEL
}

/// Whether a signal has raised the flag.
pub fn raised() -> bool {
    CANCEL.load(Ordering::SeqCst)
}

/// The first signal received, if any.
pub fn received() -> Option<Signal> {
    Signal::from_number(RECEIVED.load(Ordering::SeqCst))
}

#[cfg(unix)]
fn receive() -> std::io::Result<()> {
    let numbers = Signal::ALL.map(Signal::number);
    let mut signals = signal_hook::iterator::Signals::new(numbers)?;
    std::thread::Builder::new()
        .name("mac-sim-signals".into())
        .spawn(move || {
            for n in signals.forever() {
                if let Some(s) = Signal::from_number(n) {
                    on_signal(s);
                }
            }
        })?;
    Ok(())
}

#[cfg(not(unix))]
fn receive() -> std::io::Result<()> {
    ctrlc::set_handler(|| on_signal(Signal::Interrupt)).map_err(std::io::Error::other)
}

/// What a signal does (on the signals' thread).
fn on_signal(s: Signal) {
    if temporaries::published() {
        // The outputs are in place: the command is only printing what it published.
        return;
    }
    let first = RECEIVED
        .compare_exchange(0, s.number(), Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    CANCEL.store(true, Ordering::SeqCst);
    if first && !AT_ONCE.load(Ordering::SeqCst) {
        note_briefly(note_first_signal);
        return;
    }
    match temporaries::abandon() {
        // The outputs are in place: the command is only printing what it published.
        Abandoned::AlreadyPublished => {}
        Abandoned::Removed => {
            let text = format!(
                "mac-sim: error: interrupted by {}: stopped at once; nothing was published",
                s.name()
            );
            note_briefly(move || note(&text));
            std::process::exit(s.status().into());
        }
    }
}

/// The note of the first signal that stops the command cooperatively ("interrupted by
/// SIGTERM: stopping ..."), unless it is on standard error already. The signals'
/// thread writes it at once; the command calls it again before its last line
/// ([`crate::main`]), so the note is there, once and before that line, however the
/// threads are scheduled.
pub fn note_first_signal() {
    let Some(s) = received() else { return };
    if AT_ONCE.load(Ordering::SeqCst) {
        return;
    }
    let mut noted = NOTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !*noted {
        // After the shell's "^C" on a terminal.
        let start = if s == Signal::Interrupt { "\n" } else { "" };
        note(&format!(
            "{start}mac-sim: interrupted by {}: stopping, nothing will be published (a second signal quits at once)",
            s.name()
        ));
        *noted = true;
    }
}

/// `write` (a [`note`](crate::note)) on another thread, waiting for it a moment at
/// most: standard error held by a thread blocked on a full pipe must not keep a signal
/// from acting.
fn note_briefly(write: impl FnOnce() + Send + 'static) {
    let (done, wait) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new().spawn(move || {
        write();
        let _ = done.send(());
    });
    if spawned.is_ok() {
        let _ = wait.recv_timeout(Duration::from_millis(200));
    }
}

/// The variable that makes a command wait just before it publishes (for tests).
const PAUSE_VAR: &str = "MAC_SIM_TEST_PAUSE_BEFORE_PUBLISH";

/// Say that the command waits before publishing, and wait until standard input is
/// closed.
fn pause_before_publishing() {
    note(&format!(
        "mac-sim: {PAUSE_VAR}: paused before publishing; close standard input to go on"
    ));
    let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_128_plus_the_number() {
        let statuses: Vec<u8> = Signal::ALL.iter().map(|s| s.status()).collect();
        assert_eq!(statuses, [129, 130, 143]);
        #[cfg(unix)]
        for (s, n) in Signal::ALL.iter().zip([
            signal_hook::consts::SIGHUP,
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
        ]) {
            assert_eq!(s.number(), n, "{}", s.name());
        }
    }
}
