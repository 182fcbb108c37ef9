//! The integration tests of macsim-web, one test binary: a session driven every
//! way against the exact model, its events against the trace, its explanations
//! against the cable.

mod session;
