//! The combat target: among the enemies seen this decision, the nearest or
//! the best-scored, kept against a better pick by the stickiness margin.
//! In: [`TargetCandidate`]s; out: one slot. What it shoots at never decides
//! where the bot walks.

use quarry_sim::SlotId;

use crate::content::Traits;

/// An enemy seen this decision, with what target choice weighs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetCandidate {
    /// Who.
    pub slot: SlotId,
    /// Distance, units.
    pub distance: f32,
    /// Health plus armor as a share of the maximum, 0..=1.
    pub strength: f32,
    /// It hit the bot in the last 2.5 s.
    pub attacker: bool,
    /// It holds a powerup.
    pub powered: bool,
    /// Its attack is held.
    pub firing: bool,
    /// It killed the bot last.
    pub killer: bool,
}

/// Lower is more attractive.
pub fn target_score(c: &TargetCandidate, t: &Traits) -> f32 {
    let mut s = c.distance * c.distance * (1.0 + t.opportunism * (c.strength - 0.5));
    if c.killer {
        s *= 1.0 - 0.35 * t.vengefulness;
    }
    if c.attacker {
        s *= 0.55;
    }
    if c.powered {
        s *= 0.68;
    }
    if c.firing {
        s *= 0.82;
    }
    s
}

/// Picks the target among `candidates`: best-scored when `best` (this
/// engagement's roll), else nearest; the current target is kept unless the
/// pick beats it by the stickiness margin.
pub fn choose_target(
    candidates: &[TargetCandidate],
    current: Option<SlotId>,
    best: bool,
    t: &Traits,
) -> Option<SlotId> {
    let key = |c: &TargetCandidate| if best { target_score(c, t) } else { c.distance };
    let pick = candidates
        .iter()
        .min_by(|a, b| key(a).total_cmp(&key(b)).then(a.slot.cmp(&b.slot)))?;
    let Some(cur) = current.and_then(|s| candidates.iter().find(|c| c.slot == s)) else {
        return Some(pick.slot);
    };
    if pick.slot == cur.slot {
        return Some(cur.slot);
    }
    let margin = 1.0 - 0.5 * t.target_stickiness;
    if target_score(pick, t) <= target_score(cur, t) * margin {
        Some(pick.slot)
    } else {
        Some(cur.slot)
    }
}
