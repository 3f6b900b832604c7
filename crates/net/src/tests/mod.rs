//! In-crate tests that need `pub(crate)` items: strategies, decoder fuzzing
//! and the simulated-network harness.

pub(crate) mod arb;
mod fuzz;
mod oob_fuzz;
mod pair;
mod roundtrip;
pub(crate) mod util;
pub(crate) mod world;
