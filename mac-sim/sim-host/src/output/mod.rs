//! Output files, written whole or not at all.
//!
//! * `atomic`: a file written under a temporary name beside its target and renamed
//!   when complete; an output directory checked before any work starts;
//! * `set`: a set of files that appears whole or not at all;
//! * [`plan`]: every output of one command checked together before any work (no
//!   clash between them, no folder in the way);
//! * `publish`: the outputs of one command published together, or none of them;
//! * [`temporaries`]: the temporaries of the process and the one moment its outputs
//!   appear, so that a command stopped at any instant leaves all of them or none, and
//!   no temporary;
//! * `orphans`: the temporaries of processes killed without warning, removed by the
//!   next process that writes in their folder.
//!
//! Inside the module: `orphans`, `temporaries` ← `atomic` ← `set` ← `plan`, `publish`.

pub(crate) mod atomic;
pub(crate) mod orphans;
pub mod plan;
pub(crate) mod publish;
pub(crate) mod set;
pub mod temporaries;

pub use atomic::{AtomicFile, OutputError, check_file, temp_path, write_atomic, write_atomic_with};
pub use publish::Publication;
pub use set::{OutputSet, check as check_folder, check_files};
