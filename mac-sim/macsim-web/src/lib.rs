//! The browser door to the exact CSMA/CD model: the same engine as `mac-sim run`
//! (`csma-cd`, no I/O), compiled to `wasm32-unknown-unknown` and driven by the page
//! in `www/` through `wasm-bindgen`.
//!
//! The layers, from the model out:
//!
//! * `recorder`: the observer the page runs the model with: every event, the cause
//!   that explains it, the signals on the cable, each station's state.
//! * `explain`: the sentence and the IEEE 802.3 clause for an event.
//! * [`session`]: one run, driven step by step, to the next collision, by slices of
//!   time or to the end; its results equal `mac-sim run`'s.
//! * [`params`]: the schema's fields for the controls, control values checked into a
//!   scenario, scenario files in and out (the command line's messages).
//! * [`explorer`]: backoff-core's draws against the closed forms.
//! * `view`: what the page reads, as JSON and flat arrays.
//! * `bindings`: the JavaScript API.
//!
//! The page, its build (`build.sh`), its local server (`serve.sh`) and its tests
//! (`test.sh`, a real browser through Selenium) live beside this crate; see its
//! README.

mod bindings;
mod explain;
pub mod explorer;
pub mod params;
mod recorder;
pub mod session;
mod view;

pub use bindings::Sim;
pub use explain::{Rules, explain};
pub use recorder::{Activity, Cause, Recorded, Recorder, Signal, StationState};
pub use session::Session;
