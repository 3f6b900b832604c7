//! Allocation helpers shared by the planners: team sizes ("most of the
//! team", "half the team"), the role players of a team, and picking the
//! nearest free players for a role with hysteresis.

use glam::Vec3;
use quarry_sim::{SlotId, Team};

use super::{Assignment, Role};
use crate::view::{BotView, PlayerSnap};

/// Helpers for "most of the team": `max(1, ⌊(2n+2)/3⌋)` (0 for nobody).
pub fn majority(n: usize) -> usize {
    if n == 0 { 0 } else { (2 * n).div_ceil(3).max(1) }
}

/// Helpers for "half the team": `max(1, ⌊(n+1)/2⌋)` (0 for nobody).
pub fn support(n: usize) -> usize {
    if n == 0 { 0 } else { n.div_ceil(2).max(1) }
}

/// The other team (`Free` and spectators have none).
pub fn opponent(team: Team) -> Option<Team> {
    match team {
        Team::Red => Some(Team::Blue),
        Team::Blue => Some(Team::Red),
        _ => None,
    }
}

/// The role players of `team`: bots in `bots` with a body on the team,
/// alive and not frozen, in slot order.
pub fn role_players<'v>(view: &'v BotView<'_>, bots: &[SlotId], team: Team) -> Vec<&'v PlayerSnap> {
    let mut out: Vec<&PlayerSnap> = view
        .iter_players()
        .filter(|p| p.team == team && p.active() && bots.contains(&p.slot))
        .collect();
    out.sort_by_key(|p| p.slot);
    out
}

/// Takes the `n` players of `free` with the lowest cost to `target` out of
/// it, in cost order (ties to the lower slot). A player whose previous role
/// was `role` has its distance scaled by `sticky` (0: holders always first;
/// 1: no preference), which keeps roles from flapping.
pub fn take_nearest<'v>(
    free: &mut Vec<&'v PlayerSnap>,
    n: usize,
    target: Vec3,
    role: Role,
    prev: &[Assignment],
    sticky: f32,
) -> Vec<&'v PlayerSnap> {
    take_cheapest(free, n, |p| {
        let held = prev.iter().any(|a| a.slot == p.slot && a.role == role);
        p.origin.distance(target) * if held { sticky } else { 1.0 }
    })
}

/// Takes the `n` players of `free` with the lowest `cost` out of it, in
/// cost order (ties to the lower slot).
pub fn take_cheapest<'v>(
    free: &mut Vec<&'v PlayerSnap>,
    n: usize,
    cost: impl Fn(&PlayerSnap) -> f32,
) -> Vec<&'v PlayerSnap> {
    let mut order: Vec<(f32, &'v PlayerSnap)> = free.iter().map(|p| (cost(p), *p)).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.slot.cmp(&b.1.slot)));
    let picked: Vec<&'v PlayerSnap> = order.into_iter().take(n).map(|(_, p)| p).collect();
    free.retain(|p| !picked.iter().any(|q| q.slot == p.slot));
    picked
}
