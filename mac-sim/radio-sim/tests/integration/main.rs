//! radio-sim's integration tests: one binary, a module per subject.

mod literature;
