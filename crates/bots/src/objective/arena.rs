//! Clan Arena (and Freeze Tag's bots with no body to rescue): fight, and
//! do not get caught alone.
//!
//! A bot farther than 700 units from every standing teammate regroups: it
//! heads for the nearest one (until within 350, so the role does not flap
//! at the edge). The objective is soft (40, below
//! [`crate::decide::SOFT_OBJECTIVE`]): an enemy in sight is still worth
//! chasing. Alone *and* outnumbered near by (more standing enemies than
//! friends within 900 units) it becomes firm (55): the bot falls back to
//! its team, fighting on the way, instead of chasing into the numbers. A
//! bot with company fights: no objective, so combat, chasing and roaming
//! as in deathmatch. There are no items in Clan Arena, so none are sought.
//!
//! A round must end by fighting, not by its time limit, even on a large
//! map where the teams never meet. Once a round has been live for
//! [`HUNT_AFTER_S`], a bot that would just fight hunts instead: a soft
//! objective ([`HUNT`], below the soft line, so a seen enemy or a rescue
//! still wins) toward the nearest standing enemy. That is a late-round
//! reveal, as round-based modes commonly give players to end stalemates;
//! bots use it only for where to walk, never for aim or sight.

use quarry_sim::Team;

use super::{Assignment, Role};
use crate::decide::Objective;
use crate::view::{BotView, PlayerSnap};

/// Farther than this from every teammate is alone, units.
pub const ALONE: f32 = 700.0;
/// A regroup ends this near a teammate, units.
pub const TOGETHER: f32 = 350.0;
/// Counting friends and foes this near, units.
pub const PRESSURE_RADIUS: f32 = 900.0;
/// Regrouping, when nothing presses.
pub const REGROUP: f32 = 40.0;
/// Regrouping while outnumbered near by.
pub const REGROUP_PRESSED: f32 = 55.0;
/// A regrouping bot holds within this of the teammate it joined, units.
const HOLD: f32 = 200.0;
/// A live round this old makes fighting bots hunt, seconds.
pub const HUNT_AFTER_S: f32 = 40.0;
/// Hunting: a suggestion (below [`crate::decide::SOFT_OBJECTIVE`]).
pub const HUNT: f32 = 30.0;

/// Plans every role player of `team` (in slot order) into `out`.
pub fn plan_team(
    view: &BotView<'_>,
    team: Team,
    players: &[&PlayerSnap],
    prev: &[Assignment],
    out: &mut Vec<Assignment>,
) {
    plan_players(view, team, players, prev, out);
}

/// Regroup or fight for each of `players` (`prev`: last tick's plan).
pub fn plan_players(
    view: &BotView<'_>,
    team: Team,
    players: &[&PlayerSnap],
    prev: &[Assignment],
    out: &mut Vec<Assignment>,
) {
    for p in players {
        let regrouping = prev.iter().any(|a| a.slot == p.slot && a.role == Role::Regroup);
        out.push(plan_one(view, team, p, regrouping));
    }
}

fn plan_one(view: &BotView<'_>, team: Team, me: &PlayerSnap, regrouping: bool) -> Assignment {
    let nearest = view
        .iter_players()
        .filter(|q| q.team == team && q.slot != me.slot && q.active())
        .map(|q| (q.origin.distance(me.origin), q))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.slot.cmp(&b.1.slot)));
    let Some((d, mate)) = nearest else {
        return hunt_or_fight(view, team, me);
    };
    // Alone starts beyond ALONE; a regroup under way lasts until TOGETHER.
    if d <= if regrouping { TOGETHER } else { ALONE } {
        return hunt_or_fight(view, team, me);
    }
    let near = |t: &PlayerSnap| t.active() && t.origin.distance(me.origin) <= PRESSURE_RADIUS;
    let foes = view.iter_players().filter(|t| t.team != team && near(t)).count();
    let friends = view.iter_players().filter(|t| t.team == team && near(t)).count();
    let priority = if foes > friends { REGROUP_PRESSED } else { REGROUP };
    let o = Objective {
        key: Role::Regroup.key(u32::from(mate.slot.0)),
        origin: mate.origin,
        priority,
        hold_radius: Some(HOLD),
    };
    Assignment::new(me.slot, Role::Regroup, o)
}

/// Fight; or, in a live round older than [`HUNT_AFTER_S`], hunt the
/// nearest standing enemy.
fn hunt_or_fight(view: &BotView<'_>, team: Team, me: &PlayerSnap) -> Assignment {
    let late = view
        .mode
        .round
        .is_some_and(|r| r.live && view.clock.ms_since(r.started_at) >= HUNT_AFTER_S * 1000.0);
    let prey = view
        .iter_players()
        .filter(|t| t.team != team && matches!(t.team, Team::Red | Team::Blue) && t.active())
        .map(|t| (t.origin.distance(me.origin), t))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.slot.cmp(&b.1.slot)));
    match prey {
        Some((_, t)) if late => Assignment::new(
            me.slot,
            Role::Hunt,
            Objective { key: Role::Hunt.key(u32::from(t.slot.0)), origin: t.origin, priority: HUNT, hold_radius: None },
        ),
        _ => Assignment::fight(me.slot),
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use quarry_sim::SlotId;
    use quarry_sim::rules::GameType;

    use super::*;
    use crate::navigate::StraightNavigator;
    use crate::objective::ctf::Perimeters;
    use crate::objective::testkit::{Kit, player};
    use crate::objective::{Mode, plan_all};

    #[test]
    fn the_lone_bot_regroups_the_pack_fights() {
        let kit = Kit::new();
        let players = vec![
            player(0, Team::Red, Vec3::ZERO),
            player(1, Team::Red, Vec3::new(200.0, 0.0, 0.0)),
            player(2, Team::Red, Vec3::new(2000.0, 0.0, 0.0)),
            player(8, Team::Blue, Vec3::new(-3000.0, 0.0, 0.0)),
        ];
        let mut view = kit.view(GameType::ClanArena, players);
        let bots: Vec<SlotId> = [0u8, 1, 2, 8].map(SlotId).to_vec();
        let mut nav = StraightNavigator::default();
        let p = plan_all(Mode::ClanArena, &view, &bots, &[], &mut Perimeters::default(), &mut nav);
        let role = |p: &[Assignment], s: u8| p.iter().find(|a| a.slot == SlotId(s)).map(|a| a.role);
        assert_eq!(role(&p, 0), Some(Role::Fight));
        assert_eq!(role(&p, 1), Some(Role::Fight));
        assert_eq!(role(&p, 2), Some(Role::Regroup));
        assert_eq!(role(&p, 8), Some(Role::Fight), "nobody to regroup with");
        let o = p.iter().find(|a| a.slot == SlotId(2)).and_then(|a| a.objective).expect("regroup");
        assert_eq!(o.origin.x, 200.0, "toward the nearest teammate");
        assert!(o.priority < crate::decide::SOFT_OBJECTIVE, "an enemy in sight may still be chased");
        // Two enemies close to the lone bot: it falls back, firmly.
        view.players[9] = Some(player(9, Team::Blue, Vec3::new(2300.0, 0.0, 0.0)));
        view.players[10] = Some(player(10, Team::Blue, Vec3::new(2400.0, 0.0, 0.0)));
        let p = plan_all(Mode::ClanArena, &view, &bots, &[], &mut Perimeters::default(), &mut nav);
        let o = p.iter().find(|a| a.slot == SlotId(2)).and_then(|a| a.objective).expect("regroup");
        assert_eq!(o.priority, REGROUP_PRESSED);
        assert!(o.priority >= crate::decide::SOFT_OBJECTIVE);
        // Under way and now 500 from the pack: still regrouping (no flapping at 700).
        if let Some(Some(q)) = view.players.get_mut(2) {
            q.origin.x = 700.0;
        }
        let again = plan_all(Mode::ClanArena, &view, &bots, &p, &mut Perimeters::default(), &mut nav);
        assert_eq!(role(&again, 2), Some(Role::Regroup));
        assert_eq!(role(&plan_all(Mode::ClanArena, &view, &bots, &[], &mut Perimeters::default(), &mut nav), 2), Some(Role::Fight));
    }

    #[test]
    fn late_in_a_round_the_pack_hunts_the_nearest_enemy() {
        let kit = Kit::new();
        let players = vec![
            player(0, Team::Red, Vec3::ZERO),
            player(1, Team::Red, Vec3::new(200.0, 0.0, 0.0)),
            player(8, Team::Blue, Vec3::new(-3000.0, 0.0, 0.0)),
            player(9, Team::Blue, Vec3::new(-2900.0, 0.0, 0.0)),
        ];
        let mut view = kit.view(GameType::ClanArena, players);
        let bots: Vec<SlotId> = [0u8, 1, 8, 9].map(SlotId).to_vec();
        let mut nav = StraightNavigator::default();
        let round = |started_at| quarry_sim::mode::RoundInfo {
            number: 1,
            live: true,
            started_at,
            ends_at: None,
            standing: (2, 2),
            wins: (0, 0),
        };
        let roles = |view: &BotView<'_>, nav: &mut StraightNavigator| {
            plan_all(Mode::ClanArena, view, &bots, &[], &mut Perimeters::default(), nav)
        };
        // Early in the round: everyone just fights.
        view.mode.round = Some(round(view.clock.tick));
        assert!(roles(&view, &mut nav).iter().all(|a| a.role == Role::Fight));
        // 40 s in: everyone hunts, the nearest enemy, softly.
        view.clock.tick += 40 * 60;
        let p = roles(&view, &mut nav);
        assert!(p.iter().all(|a| a.role == Role::Hunt), "{p:?}");
        let o = p.iter().find(|a| a.slot == SlotId(0)).and_then(|a| a.objective).expect("hunt");
        assert_eq!(o.origin.x, -2900.0, "the nearest blue");
        assert!(o.priority < crate::decide::SOFT_OBJECTIVE, "a seen enemy is still fought");
        // Between rounds nobody hunts.
        view.mode.round = Some(quarry_sim::mode::RoundInfo { live: false, ..round(100) });
        assert!(roles(&view, &mut nav).iter().all(|a| a.role == Role::Fight));
    }
}
