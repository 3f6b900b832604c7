//! The thin QUIC shell (work in progress).

mod loss;

pub use loss::LossHook;
pub(crate) use loss::SplitMix64;
