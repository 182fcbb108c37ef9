//! Ctrl-C: the first one raises [`flag`], which every long computation checks, so
//! that the command stops cleanly, publishes nothing and exits 130; a second one exits
//! at once.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static CANCEL: AtomicBool = AtomicBool::new(false);

/// The cancel flag, with the Ctrl-C handler installed on first use.
pub fn flag() -> &'static AtomicBool {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let handler = ctrlc::set_handler(|| {
            if CANCEL.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C: stop at once (no output set is being published).
                std::process::exit(130);
            }
            eprintln!("\nmac-sim: interrupted: stopping (Ctrl-C again to quit at once)");
        });
        if let Err(e) = handler {
            eprintln!("mac-sim: warning: Ctrl-C will not stop cleanly: {e}");
        }
    });
    &CANCEL
}

/// Whether Ctrl-C was pressed.
pub fn raised() -> bool {
    CANCEL.load(Ordering::SeqCst)
}
