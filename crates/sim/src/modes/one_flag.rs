//! One Flag CTF: one neutral flag, captured at the enemy base
//! ([`crate::modes::flags`] has the flag and its touches); otherwise the rules of
//! [`super::ctf`].

use super::ModeDef;
use crate::rules::GameType;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef {
    gametype: GameType::OneFlag,
    rules: super::ctf::rules,
    install: crate::modes::flags::install,
    check_map: |map| super::ctf::check_flags(map, true),
};
