//! Freeze Tag: rescuers uniquely matched to frozen teammates.
//!
//! Greedy global matching: of all (rescuer, frozen body) pairs the
//! cheapest is taken first, then the cheapest among the rest, so each body
//! gets at most one rescuer and each bot at most one body. The cost is the
//! distance, scaled by 0.7 for the pair that was matched last tick (so a
//! rescuer halfway there is not swapped for one a little nearer); ties go
//! to the lower bot slot, then the lower body slot.
//!
//! A rescuer does not stand on the body (the thawed player rises where the
//! body stands, and two players inside each other are stuck): it goes to a
//! stand point 55% of `g_thawRadius` from the body on its own side (another
//! side if a wall is there) and holds within 30% of the radius of it —
//! inside the radius, clear of the body — until the body thaws; it stops
//! moving there, and aims and fires at whoever comes. Its priority is 88
//! plus an urgency that rises with the share of the team frozen (up to
//! +8), when at most one teammate still stands (+3) and with enemies near
//! the body (+1.5 each within 640 units, up to +3).
//!
//! Bots not matched play as in Clan Arena ([`super::arena`]): fight, and
//! regroup when alone.

use glam::Vec3;
use quarry_map::Contents;
use quarry_sim::Team;

use super::{Assignment, Role, arena};
use crate::decide::Objective;
use crate::view::{BotView, PlayerSnap};

/// Base priority of a rescue.
pub const RESCUE: f32 = 88.0;
/// Enemies this near a body press a rescue, units.
pub const PRESSURE_RADIUS: f32 = 640.0;
/// Where a rescuer stands: this share of the thaw radius from the body.
pub const STAND_SHARE: f32 = 0.55;
/// The share of the thaw radius a rescuer holds within, around its stand point.
pub const HOLD_SHARE: f32 = 0.3;
/// Keeping last tick's pair: its distance counts this much.
const STICKY: f32 = 0.7;

/// Where a rescuer coming from `from` stands to thaw the body at `body`:
/// `distance` out toward `from`, or the first of seven other directions
/// the player box fits along; the body itself if none does.
pub fn stand_point(view: &BotView<'_>, body: Vec3, from: Vec3, distance: f32) -> Vec3 {
    let toward = Vec3::new(from.x - body.x, from.y - body.y, 0.0).normalize_or(Vec3::X);
    let half = view.settings.movement.bbox_half_width;
    let (mins, maxs) = (Vec3::new(-half, -half, -16.0), Vec3::new(half, half, 16.0));
    for turn in [0.0f32, 45.0, -45.0, 90.0, -90.0, 135.0, -135.0, 180.0] {
        let (sin, cos) = turn.to_radians().sin_cos();
        let dir = Vec3::new(toward.x * cos - toward.y * sin, toward.x * sin + toward.y * cos, 0.0);
        let at = body + dir * distance;
        let tr = view.map.world().trace(body, at, mins, maxs, Contents::MASK_PLAYER_SOLID);
        if !tr.start_solid && tr.fraction >= 1.0 {
            return at;
        }
    }
    body
}

/// How urgent rescuing a body at `body` is for `team`: `frozen` of the
/// team frozen, `standing` still up.
pub fn urgency(view: &BotView<'_>, team: Team, body: Vec3, frozen: usize, standing: usize) -> f32 {
    let share = frozen as f32 / (frozen + standing).max(1) as f32;
    let last_stand = if standing <= 1 { 3.0 } else { 0.0 };
    let enemies = view
        .iter_players()
        .filter(|p| p.team != team && p.active() && p.origin.distance(body) <= PRESSURE_RADIUS)
        .count();
    8.0 * share + last_stand + (1.5 * enemies as f32).min(3.0)
}

/// Matches `players` (in slot order) to the frozen bodies of `team` into
/// `out`; the others get [`arena`]'s plan.
pub fn plan_team(view: &BotView<'_>, team: Team, players: &[&PlayerSnap], prev: &[Assignment], out: &mut Vec<Assignment>) {
    let mut bodies: Vec<_> = view
        .mode
        .frozen
        .iter()
        .filter(|f| f.team == team && f.thaw < 1.0)
        .copied()
        .collect();
    bodies.sort_by_key(|f| f.slot);
    let standing = view.iter_players().filter(|p| p.team == team && p.active()).count();
    let held = |bot: &PlayerSnap, body: quarry_sim::SlotId| {
        prev.iter().any(|a| {
            a.slot == bot.slot
                && a.role == Role::Rescue
                && a.objective.is_some_and(|o| o.key == Role::Rescue.key(u32::from(body.0)))
        })
    };
    let mut pairs: Vec<(f32, usize, usize)> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        for (j, b) in bodies.iter().enumerate() {
            let d = p.origin.distance(b.origin) * if held(p, b.slot) { STICKY } else { 1.0 };
            pairs.push((d, i, j));
        }
    }
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut bot_used = vec![false; players.len()];
    let mut body_used = vec![false; bodies.len()];
    let thaw_radius = view.settings.thaw_radius.max(16.0);
    let hold = (thaw_radius * HOLD_SHARE).max(8.0);
    let mut rest: Vec<&PlayerSnap> = Vec::new();
    for (_, i, j) in pairs {
        if bot_used.get(i) != Some(&false) || body_used.get(j) != Some(&false) {
            continue;
        }
        let (Some(p), Some(b)) = (players.get(i), bodies.get(j)) else { continue };
        bot_used[i] = true;
        body_used[j] = true;
        let priority = (RESCUE + urgency(view, team, b.origin, bodies.len(), standing)).min(100.0);
        let o = Objective {
            key: Role::Rescue.key(u32::from(b.slot.0)),
            origin: stand_point(view, b.origin, p.origin, thaw_radius * STAND_SHARE),
            priority,
            hold_radius: Some(hold),
        };
        out.push(Assignment::new(p.slot, Role::Rescue, o));
    }
    for (i, p) in players.iter().enumerate() {
        if bot_used.get(i) == Some(&false) {
            rest.push(p);
        }
    }
    arena::plan_players(view, team, &rest, prev, out);
}

#[cfg(test)]
mod tests {
    use quarry_sim::SlotId;
    use quarry_sim::mode::FrozenInfo;
    use quarry_sim::rules::GameType;

    use super::*;
    use crate::navigate::StraightNavigator;
    use crate::objective::ctf::Perimeters;
    use crate::objective::testkit::{Kit, player};
    use crate::objective::{Mode, plan_all};

    fn frozen(view: &mut BotView<'_>, slot: u8, team: Team, at: Vec3) {
        if let Some(Some(p)) = view.players.get_mut(usize::from(slot)) {
            p.frozen = true;
        }
        view.mode.frozen.push(FrozenInfo {
            slot: SlotId(slot),
            team,
            origin: Vec3::new(at.x, at.y, 24.0),
            thaw: 0.0,
        });
    }

    fn plan(view: &BotView<'_>, bots: &[SlotId], prev: &[Assignment]) -> Vec<Assignment> {
        let mut nav = StraightNavigator::default();
        plan_all(Mode::FreezeTag, view, bots, prev, &mut Perimeters::default(), &mut nav)
    }

    fn rescues(p: &[Assignment]) -> Vec<(u8, u32)> {
        p.iter()
            .filter(|a| a.role == Role::Rescue)
            .filter_map(|a| a.objective.map(|o| (a.slot.0, o.key & 0xff)))
            .collect()
    }

    #[test]
    fn each_body_gets_one_rescuer_the_globally_nearest() {
        let kit = Kit::new();
        let players = (0..5u8)
            .map(|i| player(i, Team::Red, Vec3::new(200.0 * f32::from(i), 0.0, 0.0)))
            .chain([player(8, Team::Blue, Vec3::new(5000.0, 0.0, 0.0))])
            .collect();
        let mut view = kit.view(GameType::FreezeTag, players);
        // Bodies of red 3 (at 600) and red 4 (at 800); bots 0, 1, 2 stand.
        frozen(&mut view, 3, Team::Red, Vec3::new(600.0, 0.0, 0.0));
        frozen(&mut view, 4, Team::Red, Vec3::new(800.0, 0.0, 0.0));
        let bots: Vec<SlotId> = (0..5).map(SlotId).collect();
        let p = plan(&view, &bots, &[]);
        // Red 2 (at 400) is nearest to both; it takes body 3 (200 away),
        // red 1 then takes body 4 (600 away, the cheapest left).
        assert_eq!(rescues(&p), vec![(1, 4), (2, 3)]);
        assert!(p.iter().all(|a| a.slot != SlotId(3) && a.slot != SlotId(4)), "the frozen get nothing");
        let r = p.iter().find(|a| a.slot == SlotId(2)).and_then(|a| a.objective).expect("rescue");
        let hold = r.hold_radius.unwrap_or(0.0);
        assert!((hold - kit.settings.thaw_radius * HOLD_SHARE).abs() < 1e-3);
        // It stands on its own side of the body (red 2 comes from x 400 to
        // the body at 600), inside the thaw radius however it holds, and
        // clear of the body's box.
        let body = Vec3::new(600.0, 0.0, 24.0);
        assert!(r.origin.x < body.x, "{:?}", r.origin);
        assert!(r.origin.distance(body) + hold < kit.settings.thaw_radius);
        assert!(r.origin.distance(body) - hold >= 2.0 * kit.settings.movement.bbox_half_width - 8.0);
        // 2 of 5 frozen: 88 + 8 * 2/5.
        assert!((r.priority - (RESCUE + 3.2)).abs() < 1e-3, "{}", r.priority);
        // Shuffled bot order: the same matching.
        let shuffled: Vec<SlotId> = [4u8, 2, 0, 3, 1].map(SlotId).to_vec();
        assert_eq!(plan(&view, &shuffled, &[]), p);
        // A body already matched keeps its rescuer when another gets a bit nearer.
        if let Some(Some(q)) = view.players.get_mut(0) {
            q.origin.x = 350.0;
        }
        let again = plan(&view, &bots, &p);
        assert_eq!(rescues(&again), vec![(1, 4), (2, 3)]);
    }

    #[test]
    fn urgency_rises_with_the_share_frozen_and_enemies_near() {
        let kit = Kit::new();
        let players = vec![
            player(0, Team::Red, Vec3::ZERO),
            player(1, Team::Red, Vec3::new(100.0, 0.0, 0.0)),
            player(8, Team::Blue, Vec3::new(1000.0, 300.0, 0.0)),
            player(9, Team::Blue, Vec3::new(1000.0, -300.0, 0.0)),
        ];
        let view = kit.view(GameType::FreezeTag, players);
        let body = Vec3::new(1000.0, 0.0, 24.0);
        let calm = urgency(&view, Team::Red, Vec3::new(-3000.0, 0.0, 24.0), 1, 3);
        let pressed = urgency(&view, Team::Red, body, 1, 3);
        let lost = urgency(&view, Team::Red, Vec3::new(-3000.0, 0.0, 24.0), 3, 1);
        assert!((calm - 2.0).abs() < 1e-3);
        assert!((pressed - 5.0).abs() < 1e-3, "two enemies near: +3");
        assert!((lost - 9.0).abs() < 1e-3, "three of four frozen, one standing");
    }

    #[test]
    fn frozen_enemies_are_no_targets() {
        let kit = Kit::new();
        let mut view = kit.view(
            GameType::FreezeTag,
            vec![player(0, Team::Red, Vec3::ZERO), player(8, Team::Blue, Vec3::new(300.0, 0.0, 0.0))],
        );
        let me = view.player(SlotId(0)).copied().expect("me");
        let them = view.player(SlotId(8)).copied().expect("them");
        assert!(view.is_enemy(&me, &them));
        frozen(&mut view, 8, Team::Blue, Vec3::new(300.0, 0.0, 0.0));
        let them = view.player(SlotId(8)).copied().expect("them");
        assert!(!view.is_enemy(&me, &them), "a frozen enemy is not worth a shot");
    }
}
