//! Weapon choice and shot safety.
//!
//! **Choice**: every weapon held with ammo gets a range suitability (a
//! close score and a far score blended by distance, from the table below),
//! times the bot's weapon bias and an ammo factor. Splash weapons score a
//! fifth at point-blank range; the gauntlet only scores inside its reach.
//! Two rules from what a weapon does, not its name, weigh the range in as
//! a person does:
//!
//! - *Spread*: a weapon that scatters its rounds is worth the share of
//!   them a body at that range catches with the aim dead on
//!   ([`spread_share`]: a shotgun's pellets, spread evenly over a square,
//!   all land on a body up to about 180 units and a fifth of them at 500;
//!   a machinegun's rounds, dense at the centre, lose little before 1,000).
//!   People keep the shotgun for close quarters for exactly this reason.
//! - *Flight time*: a target sees a projectile coming and sidesteps it, so
//!   a direct hit's worth falls with the flight time: by
//!   `1 / (1 + (t / DODGE_SECONDS)²)`, [`DODGE_SECONDS`] being a reaction
//!   (about 0.25 s) plus the time a strafing body needs to leave the round's
//!   path. A splash weapon keeps [`SPLASH_KEEPS`] of its worth whatever the
//!   flight (the blast still reaches a target that stepped aside).
//!
//! Re-evaluated every `weaponSwitchMsec`; with probability `weaponSkill`
//! the choice is careful, otherwise the weapon in hand is kept if it works
//! at all. A switch needs the best weapon to beat the one in hand by 18%
//! and at least 850 ms since the last switch (hysteresis and dwell), unless
//! the one in hand cannot fire.
//!
//! **Safety**: before a shot the line of fire is swept along the *view*
//! axis (where the round goes, which may be off the aim ray by the whole
//! fire cone): a hitscan ray, or a projectile's arc in steps. A shot that
//! would hit a teammate, or whose splash would reach the bot itself or a
//! teammate, is unsafe; a shot that would hit a wall short of the target
//! with no splash reaching it is useless.

use glam::Vec3;
use quarry_map::Contents;
use quarry_sim::SlotId;
use quarry_sim::components::Inventory;
use quarry_sim::scene::SceneTrace;
use quarry_sim::weapons::{SPREAD_DISTANCE, WeaponDef, WeaponKind, WeaponTable, distance_to_box};

use crate::content::{Traits, WeaponBias};
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};

/// Range below which range suitability is the close score, units.
const CLOSE_RANGE: f32 = 250.0;
/// Range above which it is the far score, units.
const FAR_RANGE: f32 = 1000.0;
/// The range assumed with no enemy (a general-purpose pick).
pub const NO_ENEMY_RANGE: f32 = 1000.0;
/// The flight time at which a projectile's direct hits are worth half, s.
pub const DODGE_SECONDS: f32 = 0.6;
/// The share of a splash weapon's worth that flight time cannot take away.
pub const SPLASH_KEEPS: f32 = 0.5;
/// Half the width of the body a spread is measured against (the player box).
const BODY_HALF_WIDTH: f32 = 15.0;
/// Half the height of that body.
const BODY_HALF_HEIGHT: f32 = 28.0;
/// Minimum time between switches, ms.
pub const SWITCH_DWELL_MS: f32 = 850.0;
/// How much better the best weapon must score to replace the one in hand.
pub const SWITCH_MARGIN: f32 = 1.18;

/// How a weapon suits distances: score up close, score far away, and the
/// range the bot likes to fight at with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RangeProfile {
    /// Score at or under 250 units.
    pub close: f32,
    /// Score at or beyond 1000 units.
    pub far: f32,
    /// Preferred fighting range, units.
    pub preferred: f32,
}

/// The range profile of a weapon: by table name for the Quake 3 roster,
/// else derived from what it is (so a custom weapon table still works).
pub fn profile(def: &WeaponDef) -> RangeProfile {
    let p = |close, far, preferred| RangeProfile { close, far, preferred };
    match def.name.as_str() {
        "shotgun" => p(12.0, 2.0, 220.0),
        "lightning_gun" => p(11.0, 8.0, 420.0),
        "rocket_launcher" => p(10.0, 9.0, 560.0),
        "plasma_gun" => p(9.0, 7.0, 500.0),
        "railgun" => p(5.0, 12.0, 900.0),
        "machinegun" => p(4.0, 5.0, 600.0),
        "grenade_launcher" => p(3.0, 3.0, 480.0),
        "gauntlet" => p(1.0, 1.0, 72.0),
        _ => match def.kind {
            WeaponKind::Melee => p(1.0, 1.0, 72.0),
            WeaponKind::Hitscan if def.pellets > 1 => p(10.0, 2.0, 250.0),
            WeaponKind::Hitscan => p(5.0, 6.0, 600.0),
            WeaponKind::Projectile => p(7.0, 5.0, 500.0),
        },
    }
}

fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// How well `def` suits fighting at `range` units (0: useless there).
pub fn suitability(def: &WeaponDef, range: f32) -> f32 {
    let p = profile(def);
    if def.kind == WeaponKind::Melee {
        return if range <= def.range + 64.0 { 14.0 } else { 0.1 };
    }
    let b = smoothstep((range - CLOSE_RANGE) / (FAR_RANGE - CLOSE_RANGE));
    let mut s = p.close + (p.far - p.close) * b;
    if def.kind == WeaponKind::Hitscan && def.spread > 0.0 {
        s *= spread_share(def.spread * range / SPREAD_DISTANCE, def.pellets > 1);
    }
    if def.kind == WeaponKind::Projectile && def.speed > 0.0 {
        let t = range / def.speed;
        let direct = 1.0 / (1.0 + (t / DODGE_SECONDS).powi(2));
        s *= if def.has_splash() { SPLASH_KEEPS + (1.0 - SPLASH_KEEPS) * direct } else { direct };
    }
    if def.has_splash() && range < def.splash_radius + 48.0 {
        s *= 0.2;
    }
    if def.kind == WeaponKind::Hitscan && def.range > 0.0 && range > def.range {
        s *= 0.1;
    }
    s
}

/// The share of rounds that land on a standing body (the player box seen
/// side-on) when the aim is dead on and the rounds scatter up to `spread`
/// units off the aim line at the body's range: evenly over a square
/// (`square`, Quake 3's shotgun) or over a disc denser at the centre (a
/// uniform radius at a uniform angle, its machinegun).
pub fn spread_share(spread: f32, square: bool) -> f32 {
    if spread <= BODY_HALF_WIDTH {
        return 1.0;
    }
    if square {
        return (BODY_HALF_WIDTH / spread) * (BODY_HALF_HEIGHT / spread).min(1.0);
    }
    // Over the radius (uniform in 0..spread), the share of a circle's
    // angles inside the box: all of them inside the half-width, then the
    // circle leaves the box at the sides (and, further, at top and bottom).
    const STEPS: usize = 16;
    let angles = |r: f32| {
        // The arc of a quadrant past the box's side at half-extent `h`.
        let past = |h: f32| if r > h { (h / r).acos() } else { 0.0 };
        (1.0 - (past(BODY_HALF_WIDTH) + past(BODY_HALF_HEIGHT)) / std::f32::consts::FRAC_PI_2).max(0.0)
    };
    (0..STEPS).map(|i| angles((i as f32 + 0.5) / STEPS as f32 * spread)).sum::<f32>() / STEPS as f32
}

/// Ammo factor: full from five shots up, less when nearly empty.
fn ammo_factor(def: &WeaponDef, inv: &Inventory) -> f32 {
    if !def.uses_ammo() {
        return 1.0;
    }
    let shots = inv.ammo_of(def.number) as f32 / def.ammo_use.max(1) as f32;
    (0.4 + 0.12 * shots).min(1.0)
}

/// The score of weapon `n` for this bot at `range` (0 if it cannot fire).
pub fn score(table: &WeaponTable, inv: &Inventory, n: u8, range: f32, bias: &WeaponBias) -> f32 {
    match table.get(n) {
        Some(def) if table.can_fire(inv, n) => suitability(def, range) * bias.of(n) * ammo_factor(def, inv),
        _ => 0.0,
    }
}

/// Weapon choice with hysteresis.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WeaponChoice {
    /// The weapon the bot asks for.
    pub wanted: u8,
    last_switch: u32,
    next_eval: u32,
    /// The next evaluation is careful whatever the roll (a matchup asked).
    careful_next: bool,
}

impl WeaponChoice {
    /// Forgets the choice (a new life).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Re-evaluates when due and returns the weapon to ask for.
    /// `frozen` (a wrong-weapon mistake) keeps whatever is in hand.
    #[expect(clippy::too_many_arguments, reason = "the inputs of one decision")]
    pub fn choose(
        &mut self,
        table: &WeaponTable,
        inv: &Inventory,
        range: Option<f32>,
        t: &Traits,
        bias: &WeaponBias,
        frozen: bool,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> u8 {
        let in_hand = inv.switching_to.unwrap_or(inv.current);
        if self.wanted == 0 {
            self.wanted = in_hand;
        }
        let current_ok = table.can_fire(inv, self.wanted);
        if clock.tick < self.next_eval && current_ok {
            return self.wanted;
        }
        self.next_eval = clock.after_ms(t.weapon_switch_msec);
        if frozen && current_ok {
            return self.wanted;
        }
        let range = range.unwrap_or(NO_ENEMY_RANGE);
        let current = score(table, inv, self.wanted, range, bias);
        let careful = rng.chance(t.weapon_skill) || std::mem::take(&mut self.careful_next);
        if !careful && current > 0.0 {
            return self.wanted;
        }
        let best = table
            .iter()
            .map(|d| (d.number, score(table, inv, d.number, range, bias)))
            .filter(|(_, s)| *s > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        let Some((best, best_score)) = best else {
            return self.wanted;
        };
        let dwelled = clock.ms_since(self.last_switch) >= SWITCH_DWELL_MS || self.last_switch == 0;
        if best != self.wanted && (current <= 0.0 || (dwelled && best_score >= SWITCH_MARGIN * current)) {
            self.wanted = best;
            self.last_switch = clock.tick;
        }
        self.wanted
    }

    /// A matchup is being lost with the weapon in hand: the next choice
    /// comes now and is careful whatever the `weaponSkill` roll (the usual
    /// margin and dwell still hold). Forcing the matchup's own pick instead
    /// cost a level-4 team 4 frags in ten minutes of 4v4 (48 seeds, q_dm1):
    /// the choice's table knows the weapons better than the matchup's
    /// coarse strength.
    pub fn reconsider(&mut self, clock: &BotClock) {
        if !self.careful_next {
            self.careful_next = true;
            self.next_eval = self.next_eval.min(clock.tick);
        }
    }
}

/// How a projectile of `def` flies (None for hitscan and melee).
pub fn ballistics(def: &WeaponDef, gravity: f32) -> Option<crate::aim::Ballistics> {
    (def.kind == WeaponKind::Projectile).then(|| crate::aim::Ballistics {
        speed: def.speed,
        gravity: if def.gravity { gravity } else { 0.0 },
        lift_speed: def.speed * def.aim_lift / (1.0 + def.aim_lift * def.aim_lift).sqrt(),
    })
}

/// Whether a shot of `def` along `forward` from `eye` at `target` (about
/// `aim_dist` away) is safe (no teammate or self harm) and, unless
/// `suppressing`, useful (it reaches the target or splashes it).
#[expect(clippy::too_many_arguments, reason = "the inputs of one check")]
pub fn shot_is_safe(
    view: &BotView<'_>,
    me: &PlayerSnap,
    target: SlotId,
    def: &WeaponDef,
    eye: Vec3,
    forward: Vec3,
    aim_dist: f32,
    suppressing: bool,
) -> bool {
    let scene = SceneTrace {
        world: view.map.world(),
        obstacles: &view.obstacles,
        skip: Some(me.slot),
    };
    let teammate = |s: SlotId| view.team_game && s != target && view.player(s).is_some_and(|p| p.team == me.team);
    match def.kind {
        WeaponKind::Melee | WeaponKind::Hitscan => {
            let reach = if def.range > 0.0 {
                def.range.min(aim_dist + 64.0)
            } else {
                aim_dist + 64.0
            };
            let hit = scene.trace_scene(eye, eye + forward * reach, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
            match hit.player {
                Some(s) if teammate(s) => false,
                Some(_) => true,
                None => suppressing || hit.trace.fraction >= 1.0 || hit.trace.fraction * reach >= aim_dist - 48.0,
            }
        }
        WeaponKind::Projectile => {
            let gravity = if def.gravity {
                view.settings.movement.gravity
            } else {
                0.0
            };
            let Some((point, player, t)) = projectile_impact(&scene, def, eye, forward, aim_dist, gravity) else {
                return true;
            };
            if player.is_some_and(teammate) {
                return false;
            }
            // Splash reaching the bot (where it will be) or a teammate is unsafe.
            if def.has_splash() && splash_reaches(view, me, point, t, def.splash_radius + 8.0, teammate) {
                return false;
            }
            if player.is_some() || suppressing {
                return true;
            }
            // Hit the world: useful only if the splash reaches the target.
            view.player(target).is_some_and(|p| {
                def.has_splash()
                    && distance_to_box(point, p.origin + p.velocity * t, p.mins, p.maxs) < def.splash_radius * 0.8
            })
        }
    }
}

/// Where a projectile of `def` fired from `eye` along `forward` first
/// hits something within its flight to about `aim_dist`: the point, the
/// player hit if any, and the time in flight. `None`: it flies clear.
fn projectile_impact(
    scene: &SceneTrace<'_>,
    def: &WeaponDef,
    eye: Vec3,
    forward: Vec3,
    aim_dist: f32,
    gravity: f32,
) -> Option<(Vec3, Option<SlotId>, f32)> {
    let mut dir = forward;
    dir.z += def.aim_lift;
    let vel = dir.normalize_or(forward) * def.speed;
    let flight = (aim_dist / def.speed.max(1.0)).clamp(0.01, 2.0) + 0.1;
    let steps = ((def.speed * flight / 48.0).ceil() as usize).clamp(6, 48);
    let mut at = eye;
    for i in 1..=steps {
        let t = flight * i as f32 / steps as f32;
        let next = eye + vel * t - Vec3::Z * (0.5 * gravity * t * t);
        let hit = scene.trace_scene(at, next, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
        if hit.trace.fraction < 1.0 || hit.trace.start_solid {
            return Some((hit.trace.end, hit.player, t * hit.trace.fraction.max(0.0)));
        }
        at = next;
    }
    None
}

/// Whether an explosion at `point`, `t` seconds from now, reaches within
/// `reach` of `me` or of a living teammate (where each will be by then).
fn splash_reaches(
    view: &BotView<'_>,
    me: &PlayerSnap,
    point: Vec3,
    t: f32,
    reach: f32,
    teammate: impl Fn(SlotId) -> bool,
) -> bool {
    let me_then = me.origin + me.velocity * t;
    if distance_to_box(point, me_then, me.mins, me.maxs) < reach {
        return true;
    }
    view.iter_players().any(|p| {
        p.alive && teammate(p.slot) && distance_to_box(point, p.origin + p.velocity * t, p.mins, p.maxs) < reach
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> WeaponTable {
        WeaponTable::quake3()
    }

    fn get(name: &str) -> WeaponDef {
        table().by_name(name).expect("weapon").clone()
    }

    fn inv_with(weapons: &[(u8, i32)]) -> Inventory {
        let mut inv = Inventory::default();
        for &(w, ammo) in weapons {
            inv.weapons |= 1 << w;
            inv.ammo[usize::from(w)] = ammo;
        }
        inv.current = weapons.first().map_or(0, |w| w.0);
        inv
    }

    #[test]
    fn range_suitability_prefers_the_right_tool() {
        let t = table();
        let get = |n: &str| t.by_name(n).expect("weapon").clone();
        let (sg, rail, rl) = (get("shotgun"), get("railgun"), get("rocket_launcher"));
        assert!(suitability(&sg, 200.0) > suitability(&rail, 200.0));
        assert!(suitability(&rail, 1500.0) > suitability(&sg, 1500.0));
        assert!(
            suitability(&rl, 100.0) < suitability(&rl, 400.0) * 0.5,
            "no rockets at point blank"
        );
        let lg = get("lightning_gun");
        assert!(suitability(&lg, 1200.0) < 1.0, "beyond its reach");
        let g = get("gauntlet");
        assert!(suitability(&g, 40.0) > 10.0 && suitability(&g, 300.0) < 1.0);
    }

    #[test]
    fn a_spread_is_worth_the_share_of_rounds_a_body_catches() {
        // Dead on at point blank every round lands, whatever the pattern.
        assert_eq!(spread_share(10.0, true), 1.0);
        assert_eq!(spread_share(10.0, false), 1.0);
        // A square of ±60 units: 15/60 of the width, 28/60 of the height.
        assert!((spread_share(60.0, true) - 0.25 * 28.0 / 60.0).abs() < 1e-6);
        // The same reach over a disc dense at the centre keeps more rounds.
        assert!(spread_share(60.0, false) > 2.0 * spread_share(60.0, true));
        // It only falls with the spread.
        let mut last = 1.0;
        for spread in [20.0, 40.0, 80.0, 160.0, 320.0] {
            let share = spread_share(spread, false);
            assert!(share < last && share > 0.0, "{spread}: {share} after {last}");
            last = share;
        }
        // So the shotgun gives way to the machinegun past close quarters
        // (the range people switch at), and not before.
        let (sg, mg) = (get("shotgun"), get("machinegun"));
        assert!(suitability(&sg, 250.0) > 1.5 * suitability(&mg, 250.0));
        assert!(suitability(&sg, 550.0) < suitability(&mg, 550.0));
    }

    #[test]
    fn a_projectile_is_worth_less_the_longer_it_flies_and_splash_keeps_some() {
        let (pg, rl) = (get("plasma_gun"), get("rocket_launcher"));
        let no_splash = WeaponDef { splash_damage: 0.0, ..rl.clone() };
        // Same profile, same range: the one without splash loses more to
        // the flight (rockets fly 900 u/s: about a second to 1,000 units).
        let kept = suitability(&rl, 1000.0) / suitability(&no_splash, 1000.0);
        assert!(kept > 2.0, "{kept}");
        // A rocket to 1,000 units is worth less than a plasma bolt there
        // relative to each one's close worth: plasma flies twice as fast.
        let fall = |d: &WeaponDef| suitability(d, 1000.0) / suitability(d, 300.0);
        assert!(fall(&no_splash) < fall(&WeaponDef { splash_damage: 0.0, ..pg.clone() }));
        // The railgun owns the far range.
        assert!(suitability(&get("railgun"), 1200.0) > 1.5 * suitability(&rl, 1200.0));
    }

    #[test]
    fn choice_has_hysteresis_and_dwell() {
        let t = table();
        let traits = Traits {
            weapon_skill: 1.0,
            ..Traits::at_skill(5.0)
        };
        let bias = WeaponBias::default();
        let mut rng = BotRng::from_seed(2);
        let inv = inv_with(&[(2, 100), (3, 10), (7, 10)]);
        let mut c = WeaponChoice::default();
        let clock = |tick| BotClock { tick, hz: 60 };
        assert_eq!(
            c.choose(&t, &inv, Some(200.0), &traits, &bias, false, &clock(100), &mut rng),
            3,
            "shotgun up close"
        );
        // Far away next tick: not re-evaluated before weaponSwitchMsec.
        assert_eq!(
            c.choose(&t, &inv, Some(1500.0), &traits, &bias, false, &clock(101), &mut rng),
            3
        );
        assert_eq!(
            c.choose(&t, &inv, Some(1500.0), &traits, &bias, false, &clock(200), &mut rng),
            7,
            "railgun far"
        );
        // Close again soon after: the dwell time keeps the railgun.
        assert_eq!(
            c.choose(&t, &inv, Some(200.0), &traits, &bias, false, &clock(231), &mut rng),
            7
        );
        assert_eq!(
            c.choose(&t, &inv, Some(200.0), &traits, &bias, false, &clock(300), &mut rng),
            3
        );
        // A weapon out of ammo is replaced at once.
        let empty = inv_with(&[(3, 0), (2, 50)]);
        let mut c = WeaponChoice {
            wanted: 3,
            ..WeaponChoice::default()
        };
        assert_eq!(
            c.choose(&t, &empty, Some(200.0), &traits, &bias, false, &clock(400), &mut rng),
            2
        );
    }

    #[test]
    fn projectile_ballistics_from_the_table() {
        let t = table();
        let rl = t.by_name("rocket_launcher").expect("rl");
        let b = ballistics(rl, 800.0).expect("projectile");
        assert_eq!((b.speed, b.gravity, b.lift_speed), (900.0, 0.0, 0.0));
        let gl = t.by_name("grenade_launcher").expect("gl");
        let g = ballistics(gl, 800.0).expect("projectile");
        assert_eq!(g.gravity, 800.0);
        assert!(g.lift_speed > 100.0);
        assert!(ballistics(t.by_name("railgun").expect("rail"), 800.0).is_none());
    }
}
