//! Capture the flag: two team flags ([`crate::modes::flags`] has the flags, their
//! touches and the capture scoring); players spawn at their team's spots;
//! killing near your flag or carrier is a defend; a flag carrier is never
//! moved by the team balance.

use super::ModeDef;
use crate::mode_rules::ModeRules;
use crate::rules::GameType;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::Ctf, rules, install: crate::modes::flags::install, check_map: |map| check_flags(map, false) };

/// The rules both flag modes share.
pub(super) fn rules(rules: &mut ModeRules) {
    rules.team_spawns = true;
    rules.balance_exempt.push(crate::modes::flags::carries_flag);
    rules.on_kill.push(crate::modes::flags::on_kill);
}

/// Whether the map has the flags the mode needs (`neutral`: One Flag's too).
pub(super) fn check_flags(map: &quarry_map::LoadedMap, neutral: bool) -> Result<(), String> {
    let mut missing: Vec<&str> = crate::modes::flags::missing_flags(map).iter().map(|t| t.name()).collect();
    if neutral && crate::modes::flags::map_neutral_flag(map).is_none() {
        missing.push("neutral");
    }
    if missing.is_empty() {
        return Ok(());
    }
    let needed = if neutral {
        "team_CTF_neutralflag, and team_CTF_redflag and team_CTF_blueflag as bases, are all needed"
    } else {
        "team_CTF_redflag and team_CTF_blueflag are both needed"
    };
    Err(format!("no {} flag ({needed})", missing.join(" or ")))
}
