//! CTF and One Flag roles, allocated once per team per tick.
//!
//! In this order, each role taking the nearest players still free (ties to
//! the lower slot; holders of the role preferred, see [`take_nearest`]):
//!
//! 1. **carrier** (whoever carries): CTF brings the enemy flag to its own
//!    base (capture 100). If the own flag is not home a capture is
//!    impossible: the carrier waits near its base (80, held within 200,
//!    fighting) while the others return or intercept — it does not go
//!    hunting, since dying gives the enemy flag back. One Flag brings the
//!    neutral flag to the *enemy* base.
//! 2. **return** (CTF, own flag dropped): 1 (2 from five bots) nearest to
//!    the flag touch it (94).
//! 3. **intercept** (an enemy carries our flag, or the neutral one):
//!    half the team when we carry too, else most of it (90; 96 when we have
//!    no carrier). Near the carrier they chase him; farther away, if they
//!    can reach his goal (where he scores) clearly first, they wait there.
//! 4. **escort** (a friendly carrier, bot or human): half the team, one
//!    more when the carrier is hurt (72; 80 hurt), at trailing formation
//!    slots behind him (lateral ±96 at 112 back, ±160 at 176 back),
//!    projected onto the navmesh and never through a wall.
//! 5. **attack** (the flag to fetch is not carried): both of a pair, else
//!    most of the team (70; 78 for a flag lying in the field: above the
//!    reference's 60, so an attacker detours only for health close by or
//!    badly needed — on oacmpctf1 over 16 seeds this took both teams
//!    scoring from 9 to 14 runs and captures from 48 to 63). Attackers
//!    stay attackers; a defender is taken only if it is three times nearer
//!    than the others (a bot back from the dead attacks instead).
//! 6. **defend**: everyone left, at spread points of a perimeter around
//!    the base (192..320 units out, in sight of the flag, the first facing
//!    the enemy), held within 160 (54; 64 while an enemy carries our flag).

use glam::Vec3;
use quarry_sim::mode::{FlagInfo, FlagStatus};
use quarry_sim::{SlotId, Team};

use super::{Assignment, Role, majority, opponent, support, take_cheapest, take_nearest};
use crate::decide::Objective;
use crate::navigate::Navigator;
use crate::perception::clear_line;
use crate::view::{BotView, PlayerSnap};

/// Bringing a flag to where it scores.
pub const CAPTURE: f32 = 100.0;
/// A carrier waiting at home for its own flag to come back.
pub const CARRIER_WAIT: f32 = 80.0;
/// Touching the own dropped flag.
pub const RETURN: f32 = 94.0;
/// Hunting the enemy carrier while we carry too.
pub const INTERCEPT: f32 = 90.0;
/// Hunting the enemy carrier when we carry nothing.
pub const INTERCEPT_NO_CARRIER: f32 = 96.0;
/// Escorting a healthy carrier.
pub const ESCORT: f32 = 72.0;
/// Escorting a hurt carrier.
pub const ESCORT_HURT: f32 = 80.0;
/// Going for the flag at its stand (above the reference's 60: fewer item detours).
pub const FETCH: f32 = 70.0;
/// Going for a flag lying in the field.
pub const FETCH_DROPPED: f32 = 78.0;
/// Holding the perimeter.
pub const DEFEND: f32 = 54.0;
/// Holding the perimeter while an enemy carries our flag.
pub const DEFEND_THREATENED: f32 = 64.0;
/// A waiting carrier holds within this of its base, units.
pub const WAIT_RADIUS: f32 = 200.0;
/// A defender holds within this of its point, units.
pub const DEFEND_RADIUS: f32 = 160.0;
/// Preferring the holders of a role: their distance counts this much.
const STICKY: f32 = 0.7;
/// A defender's distance counts this much when attackers are picked.
const RELUCTANT: f32 = 3.0;
/// Perimeter distances tried, farthest first, units.
const PERIMETER_RADII: [f32; 3] = [320.0, 256.0, 192.0];
/// Perimeter directions tried, degrees from the direction of the enemy.
const PERIMETER_ANGLES: [f32; 8] = [0.0, 55.0, -55.0, 110.0, -110.0, 160.0, -160.0, 180.0];
/// Perimeter points at most.
const MAX_POINTS: usize = 6;
/// Perimeter points keep this far apart, units.
const POINT_SPACING: f32 = 128.0;
/// Within this of the enemy carrier an interceptor chases him, units.
const CHASE_NEAR: f32 = 640.0;
/// An interceptor waits at the carrier's goal only if it gets there this much sooner, units.
const CUT_OFF_MARGIN: f32 = 256.0;
/// Escort formation: lateral offsets and trailing distances per slot, units.
const ESCORT_LATERAL: [f32; 4] = [-96.0, 96.0, -160.0, 160.0];
const ESCORT_BACK: [f32; 4] = [112.0, 112.0, 176.0, 176.0];
/// A formation slot snaps to the navmesh within this, units.
const SLOT_SNAP: f32 = 192.0;

/// The defence perimeter of each team, found on the navmesh once.
#[derive(Debug, Clone, Default)]
pub struct Perimeters {
    teams: Vec<(Team, Vec<Vec3>)>,
}

impl Perimeters {
    /// The points around `base` of `team` (the first facing `facing`);
    /// the base itself if the mesh offers none. Kept once the mesh is ready.
    pub fn points(
        &mut self,
        team: Team,
        base: Vec3,
        facing: Vec3,
        view: &BotView<'_>,
        nav: &mut dyn Navigator,
    ) -> Vec<Vec3> {
        if let Some((_, p)) = self.teams.iter().find(|(t, _)| *t == team) {
            return p.clone();
        }
        if !nav.ready() {
            return vec![base];
        }
        let points = perimeter(base, facing, view, nav);
        self.teams.push((team, points.clone()));
        points
    }
}

fn flat(v: Vec3) -> Vec3 {
    Vec3::new(v.x, v.y, 0.0)
}

/// Spread standing points around `base`, in sight of it, facing first.
pub fn perimeter(base: Vec3, facing: Vec3, view: &BotView<'_>, nav: &mut dyn Navigator) -> Vec<Vec3> {
    let dir = flat(facing - base).normalize_or(Vec3::X);
    let theta0 = dir.y.atan2(dir.x);
    let eye = Vec3::Z * 24.0;
    let mut points: Vec<Vec3> = Vec::new();
    for a in PERIMETER_ANGLES {
        let th = theta0 + a.to_radians();
        for r in PERIMETER_RADII {
            let want = base + Vec3::new(th.cos(), th.sin(), 0.0) * r;
            let Some(q) = nav.nearest(want, 128.0) else { continue };
            let ok = flat(q - want).length() <= 128.0
                && (q.z - base.z).abs() <= 160.0
                && flat(q - base).length() >= 160.0
                && clear_line(view.map.world(), base + eye, q + eye)
                && points.iter().all(|o| o.distance(q) >= POINT_SPACING);
            if ok {
                points.push(q);
                break;
            }
        }
        if points.len() >= MAX_POINTS {
            break;
        }
    }
    if points.is_empty() {
        points.push(base);
    }
    points
}

/// The carrier of `flag`, if one carries it.
fn carrier<'v>(view: &'v BotView<'_>, flag: &FlagInfo) -> Option<&'v PlayerSnap> {
    match flag.status {
        FlagStatus::Carried { by } => view.player(by),
        _ => None,
    }
}

/// Where an interceptor goes: the carrier when near him or when his goal
/// is not clearly closer, else his goal (`heading`), to cut him off.
pub fn intercept_point(me: &PlayerSnap, carrier: &PlayerSnap, heading: Vec3) -> Vec3 {
    if me.origin.distance(carrier.origin) < CHASE_NEAR {
        return carrier.origin;
    }
    if me.origin.distance(heading) + CUT_OFF_MARGIN < carrier.origin.distance(heading) {
        return heading;
    }
    carrier.origin
}

/// Formation slot `i` behind `carrier`, who moves (or else looks) toward
/// `heading`.
pub fn formation_slot(
    view: &BotView<'_>,
    nav: &mut dyn Navigator,
    carrier: &PlayerSnap,
    heading: Vec3,
    i: usize,
) -> Vec3 {
    let v = flat(carrier.velocity);
    let fwd = if v.length() >= 48.0 {
        v.normalize()
    } else {
        flat(heading - carrier.origin).normalize_or(Vec3::X)
    };
    let right = Vec3::new(fwd.y, -fwd.x, 0.0);
    let k = i % ESCORT_LATERAL.len();
    let row = (i / ESCORT_LATERAL.len()) as f32;
    let lateral = ESCORT_LATERAL.get(k).copied().unwrap_or(0.0);
    let back = ESCORT_BACK.get(k).copied().unwrap_or(112.0) + 64.0 * row;
    let want = carrier.origin - fwd * back + right * lateral;
    let up = Vec3::Z * 16.0;
    if !clear_line(view.map.world(), carrier.origin + up, want + up) {
        return carrier.origin;
    }
    nav.nearest(want, SLOT_SNAP)
        .filter(|q| q.distance(want) <= SLOT_SNAP)
        .unwrap_or(carrier.origin)
}

fn obj(role: Role, sub: u32, origin: Vec3, priority: f32, hold_radius: Option<f32>) -> Objective {
    Objective {
        key: role.key(sub),
        origin,
        priority,
        hold_radius,
    }
}

/// What one team's plan reads: the flags, bases and carriers as they are
/// this tick.
struct Situation<'v> {
    /// The neutral flag (One Flag) rather than one flag per team (CTF).
    one_flag: bool,
    /// The team planned for.
    team: Team,
    own_base: Vec3,
    enemy_base: Vec3,
    /// The flag this team plays for (the enemy's, or the neutral one).
    target: &'v FlagInfo,
    /// The team's own flag (CTF only).
    own_flag: Option<&'v FlagInfo>,
    /// Where this team's carrier scores.
    score_at: Vec3,
    friendly_carrier: Option<&'v PlayerSnap>,
    enemy_carrier: Option<&'v PlayerSnap>,
    /// Whether a capture is possible now (the own flag is home, or there is none).
    own_home: bool,
    /// How many role players the team has.
    n: usize,
}

impl<'v> Situation<'v> {
    /// The situation of `team`, or `None` when there are no bases or no
    /// flag to play for.
    fn read(view: &'v BotView<'_>, team: Team, n: usize, one_flag: bool) -> Option<Self> {
        let mode = &view.mode;
        let enemy = opponent(team)?;
        let own_base = mode.base(team)?;
        let enemy_base = mode.base(enemy)?;
        let target = if one_flag { mode.flag(Team::Free) } else { mode.flag(enemy) }?;
        let own_flag = if one_flag { None } else { mode.flag(team) };
        let enemy_carrier = if one_flag {
            carrier(view, target)
        } else {
            own_flag.and_then(|f| carrier(view, f))
        }
        .filter(|p| p.team == enemy);
        Some(Self {
            one_flag,
            team,
            own_base,
            enemy_base,
            target,
            own_flag,
            score_at: if one_flag { enemy_base } else { own_base },
            friendly_carrier: carrier(view, target).filter(|p| p.team == team),
            enemy_carrier,
            own_home: own_flag.is_none_or(|f| f.status == FlagStatus::Home),
            n,
        })
    }
}

/// Allocates the roles of `team` (its role players `players`, in slot
/// order) into `out`. `one_flag`: the neutral flag, captured at the enemy
/// base. Without bases or the flag to play for, everyone just fights.
#[expect(clippy::too_many_arguments, reason = "one team's plan with everything it reads")]
pub fn plan_team(
    view: &BotView<'_>,
    team: Team,
    players: &[&PlayerSnap],
    prev: &[Assignment],
    one_flag: bool,
    perimeters: &mut Perimeters,
    nav: &mut dyn Navigator,
    out: &mut Vec<Assignment>,
) {
    let Some(s) = Situation::read(view, team, players.len(), one_flag) else {
        out.extend(players.iter().map(|p| Assignment::fight(p.slot)));
        return;
    };
    let mut free: Vec<&PlayerSnap> = players.to_vec();
    assign_carrier(&s, &mut free, out);
    assign_return(&s, &mut free, prev, out);
    assign_intercept(&s, &mut free, prev, out);
    assign_escort(&s, &mut free, prev, view, nav, out);
    assign_attack(&s, &mut free, prev, out);
    assign_defenders(&s, free, prev, perimeters, view, nav, out);
}

/// Step 1: the carrier scores, or waits at home while the own flag is away.
fn assign_carrier(s: &Situation<'_>, free: &mut Vec<&PlayerSnap>, out: &mut Vec<Assignment>) {
    let Some(c) = s.friendly_carrier else { return };
    let Some(i) = free.iter().position(|p| p.slot == c.slot) else { return };
    free.remove(i);
    let o = if s.own_home {
        obj(Role::Carrier, 0, s.score_at, CAPTURE, None)
    } else {
        obj(Role::Carrier, 1, s.own_base, CARRIER_WAIT, Some(WAIT_RADIUS))
    };
    out.push(Assignment::new(c.slot, Role::Carrier, o));
}

/// Step 2: the nearest return our dropped flag.
fn assign_return(s: &Situation<'_>, free: &mut Vec<&PlayerSnap>, prev: &[Assignment], out: &mut Vec<Assignment>) {
    let Some(f) = s.own_flag.filter(|f| matches!(f.status, FlagStatus::Dropped { .. })) else {
        return;
    };
    let k = if s.n >= 5 { 2 } else { 1 };
    for p in take_nearest(free, k, f.origin, Role::Return, prev, STICKY) {
        out.push(Assignment::new(p.slot, Role::Return, obj(Role::Return, 0, f.origin, RETURN, None)));
    }
}

/// Step 3: intercept the enemy carrier: chase him, or wait where he scores.
fn assign_intercept(s: &Situation<'_>, free: &mut Vec<&PlayerSnap>, prev: &[Assignment], out: &mut Vec<Assignment>) {
    let Some(e) = s.enemy_carrier else { return };
    let (k, priority) = if s.friendly_carrier.is_some() {
        (support(s.n), INTERCEPT)
    } else {
        (majority(s.n), INTERCEPT_NO_CARRIER)
    };
    // Where he scores: his own base in CTF, ours in One Flag.
    let heading = if s.one_flag { s.own_base } else { s.enemy_base };
    for p in take_nearest(free, k, e.origin, Role::Intercept, prev, STICKY) {
        let at = intercept_point(p, e, heading);
        let sub = u32::from(e.slot.0);
        out.push(Assignment::new(p.slot, Role::Intercept, obj(Role::Intercept, sub, at, priority, None)));
    }
}

/// Step 4: escort our carrier at formation slots behind him.
fn assign_escort(
    s: &Situation<'_>,
    free: &mut Vec<&PlayerSnap>,
    prev: &[Assignment],
    view: &BotView<'_>,
    nav: &mut dyn Navigator,
    out: &mut Vec<Assignment>,
) {
    let Some(c) = s.friendly_carrier else { return };
    let hurt = c.health <= (c.max_health / 2).max(35);
    let k = support(s.n) + usize::from(hurt);
    let mut escorts = take_nearest(free, k, c.origin, Role::Escort, prev, STICKY);
    escorts.sort_by_key(|p| p.slot);
    let heading = if s.own_home { s.score_at } else { s.own_base };
    let priority = if hurt { ESCORT_HURT } else { ESCORT };
    for (i, p) in escorts.iter().enumerate() {
        let at = formation_slot(view, nav, c, heading, i);
        out.push(Assignment::new(p.slot, Role::Escort, obj(Role::Escort, i as u32, at, priority, None)));
    }
}

/// Step 5: attack: go for the flag unless someone carries it.
fn assign_attack(s: &Situation<'_>, free: &mut Vec<&PlayerSnap>, prev: &[Assignment], out: &mut Vec<Assignment>) {
    let target = s.target;
    if matches!(target.status, FlagStatus::Carried { .. }) {
        return;
    }
    let k = if s.n <= 2 { s.n } else { majority(s.n) };
    let dropped = matches!(target.status, FlagStatus::Dropped { .. });
    let priority = if dropped { FETCH_DROPPED } else { FETCH };
    // Attackers keep attacking; a defender leaves its post only when it
    // is by far the nearest (a bot back from the dead goes instead).
    let attackers = take_cheapest(free, k, |p| {
        let was = prev.iter().find(|a| a.slot == p.slot).map(|a| a.role);
        let d = p.origin.distance(target.origin);
        match was {
            Some(Role::Attack) => 0.0,
            Some(Role::Defend) => d * RELUCTANT,
            _ => d,
        }
    });
    for p in attackers {
        let o = obj(Role::Attack, u32::from(dropped), target.origin, priority, None);
        out.push(Assignment::new(p.slot, Role::Attack, o));
    }
}

/// Step 6: defend with everyone left, spread on the perimeter; defenders keep
/// their points.
fn assign_defenders(
    s: &Situation<'_>,
    mut free: Vec<&PlayerSnap>,
    prev: &[Assignment],
    perimeters: &mut Perimeters,
    view: &BotView<'_>,
    nav: &mut dyn Navigator,
    out: &mut Vec<Assignment>,
) {
    if free.is_empty() {
        return;
    }
    let facing = if s.one_flag { s.target.home } else { s.enemy_base };
    let points = perimeters.points(s.team, s.own_base, facing, view, nav);
    let priority = if s.enemy_carrier.is_some() { DEFEND_THREATENED } else { DEFEND };
    free.sort_by_key(|p| p.slot);
    for (slot, i) in defence_points(&free, prev, points.len()) {
        let at = points.get(i).copied().unwrap_or(s.own_base);
        let o = obj(Role::Defend, i as u32, at, priority, Some(DEFEND_RADIUS));
        out.push(Assignment::new(slot, Role::Defend, o));
    }
}

/// The perimeter point of each of `free` (in slot order) among `count`:
/// a defender keeps its point, the others take the first point free (or
/// share one when there are more defenders than points). Sorted by slot.
fn defence_points(free: &[&PlayerSnap], prev: &[Assignment], count: usize) -> Vec<(SlotId, usize)> {
    let mut taken = vec![false; count];
    let mut point_of: Vec<(SlotId, usize)> = Vec::new();
    for p in free {
        let held = prev
            .iter()
            .find(|a| a.slot == p.slot && a.role == Role::Defend)
            .and_then(|a| a.objective)
            .map(|o| (o.key & 0x00ff_ffff) as usize)
            .filter(|&i| taken.get(i) == Some(&false));
        if let Some(i) = held {
            if let Some(t) = taken.get_mut(i) {
                *t = true;
            }
            point_of.push((p.slot, i));
        }
    }
    for p in free {
        if point_of.iter().any(|(s, _)| *s == p.slot) {
            continue;
        }
        let i = taken.iter().position(|t| !t).unwrap_or(point_of.len() % count.max(1));
        if let Some(t) = taken.get_mut(i) {
            *t = true;
        }
        point_of.push((p.slot, i));
    }
    point_of.sort_by_key(|(s, _)| *s);
    point_of
}

#[cfg(test)]
#[path = "ctf_tests.rs"]
mod tests;
