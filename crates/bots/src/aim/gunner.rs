//! [`Gunner`]: one bot's aim and fire layer: the weapon it wants, the view
//! it turns toward the aim point, its mistakes, and the trigger.
//!
//! In: the target of this tick (from `decide`), where else to look, the
//! weapon table and the bot's inventory, traits, clock and RNG; out: a
//! weapon choice, view angles and whether attack is pressed.

use glam::Vec3;
use quarry_sim::weapons::{SPREAD_DISTANCE, WeaponDef};

use super::{AimState, AimTarget, MistakeKind, Mistakes};
use crate::content::{Traits, WeaponBias};
use crate::decide::{Engagement, TargetNow};
use crate::memory::EnemyTrack;
use crate::perception;
use crate::rng::BotRng;
use crate::trigger::{FireInput, FireOutcome, Trigger};
use crate::view::{BotClock, BotView, PlayerSnap};
use crate::weapons::{WeaponChoice, ballistics, shot_is_safe};

use super::DEFAULT_TARGET_RADIUS;

/// What the trigger did this tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pull {
    /// Attack is pressed.
    pub attack: bool,
    /// A new shot started (single-shot cadence or a new burst).
    pub new_shot: bool,
}

/// A bot's aim, trigger, mistakes and weapon choice.
#[derive(Debug, Clone)]
pub struct Gunner {
    /// The view and the aim belief.
    pub aim: AimState,
    /// The trigger gate.
    pub trigger: Trigger,
    /// Mistakes rolled for this engagement.
    pub mistakes: Mistakes,
    /// Weapon choice with hysteresis.
    pub weapon: WeaponChoice,
    /// Attack pressed on the last tick (for status lines).
    pub firing: bool,
}

impl Gunner {
    /// A gunner for the bot in slot `slot` (seeds the aim tremor).
    pub fn new(slot: u8) -> Self {
        Self {
            aim: AimState::new(0.0, 0.0, slot),
            trigger: Trigger::default(),
            mistakes: Mistakes::default(),
            weapon: WeaponChoice::default(),
            firing: false,
        }
    }

    /// A new life: trigger, mistakes and weapon choice start over (the
    /// view is set at the spawn).
    pub fn reset_life(&mut self) {
        self.trigger.reset();
        self.mistakes.clear();
        self.weapon.reset();
        self.firing = false;
    }

    /// A target was acquired: the trigger starts over, and a fresh
    /// acquisition rolls a new belief, lead and mistakes.
    pub fn engaged(&mut self, fresh: bool, t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        self.trigger.reset();
        if fresh {
            self.aim.engage(t, rng);
            self.mistakes.roll(t, clock, rng);
        }
    }

    /// The weapon wanted at `range` to the target (a wrong-weapon mistake
    /// freezes the choice).
    #[expect(clippy::too_many_arguments, reason = "one choice with everything it reads")]
    pub fn choose_weapon(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        range: Option<f32>,
        t: &Traits,
        bias: &WeaponBias,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> u8 {
        let frozen_weapon = self.mistakes.active(MistakeKind::WrongWeapon, clock);
        self.weapon
            .choose(view.weapons, &me.inventory, range, t, bias, frozen_weapon, clock, rng)
    }

    /// Turns the view toward `target` for this tick; returns (pitch, yaw).
    #[expect(clippy::too_many_arguments, reason = "one turn with everything it reads")]
    pub fn turn(
        &mut self,
        target: AimTarget,
        me: &PlayerSnap,
        in_hand: Option<&WeaponDef>,
        gravity: f32,
        t: &Traits,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> (f32, f32) {
        let projectile = in_hand.and_then(|d| ballistics(d, gravity));
        self.aim.spread_deg = in_hand.map_or(0.0, |d| (d.spread.max(0.0) / SPREAD_DISTANCE).atan().to_degrees());
        let frozen_belief = self.mistakes.active(MistakeKind::LoseTracking, clock);
        self.aim
            .update(target, me.eye, me.velocity, projectile.as_ref(), t, frozen_belief, clock, rng)
    }

    /// The trigger for this tick against engagement `e` (`None`: no target,
    /// the trigger resets). `name` and `debug_aim` log each new shot.
    #[expect(clippy::too_many_arguments, reason = "one trigger decision with everything it reads")]
    pub fn pull_trigger(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        e: Option<Engagement>,
        visible: bool,
        t: &Traits,
        debug_aim: Option<&str>,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Pull {
        let (Some(e), Some(aim_point)) = (e, self.aim.aim_point) else {
            self.trigger.reset();
            return Pull::default();
        };
        let Some(def) = view.weapons.get(me.inventory.current) else {
            return Pull::default();
        };
        if me.inventory.switching_to.is_some() || !view.weapons.can_fire(&me.inventory, def.number) {
            return Pull::default();
        }
        let forward = self.aim.forward();
        let unseen_ms = if visible { 0.0 } else { clock.ms_since(e.last_seen) };
        // What counts as on target: the body's half-width, or half the
        // splash of a weapon that hurts around where it lands.
        let body = view.player(e.slot).map_or(DEFAULT_TARGET_RADIUS, |p| (p.maxs.x - p.mins.x).abs() * 0.5);
        let target_radius = if def.has_splash() { body.max(def.splash_radius * 0.5) } else { body };
        let input = FireInput {
            reacted: clock.tick >= e.fire_after,
            visible,
            unseen_ms,
            eye: me.eye,
            forward,
            aim_point,
            slew: self.aim.slew_rate(),
            interval_ms: def.interval_ms as f32,
            hasty: self.mistakes.active(MistakeKind::MistimedShot, clock),
            target_radius,
        };
        let dist = aim_point.distance(me.eye);
        let suppressing = !visible;
        let outcome = self.trigger.decide(t, &input, clock, rng, || {
            shot_is_safe(view, me, e.slot, def, me.eye, forward, dist, suppressing)
        });
        match outcome {
            FireOutcome::Fire { new_shot } => {
                if new_shot {
                    self.aim.reroll_lead(t, rng);
                    if let Some(name) = debug_aim {
                        tracing::info!(
                            target: "quarry_bots::aim",
                            "{} fires {} at slot {}: reaction {:.0} ms ({}), off {:.1}/{:.1} deg, slew {:.0} deg/s, settle {:.0} ms, lead x{:.2}, {}",
                            name,
                            def.name,
                            e.slot.0,
                            e.reaction_ms,
                            if e.fresh { "fresh" } else { "re-acquired" },
                            perception::off_axis_deg(forward, me.eye, aim_point),
                            t.fire_gate_deg(dist, target_radius),
                            self.aim.slew_rate(),
                            t.effective_settle_msec(),
                            self.aim.lead_roll,
                            if visible { "aimed" } else { "suppressing" }
                        );
                    }
                }
                Pull { attack: true, new_shot }
            }
            FireOutcome::Hold(_) => Pull::default(),
        }
    }
}

/// Where to aim at the target: the body point seen (or the middle of the
/// box), raised or lowered by weapon skill and aim height, at the feet for
/// splash weapons against a grounded target, from the true position when
/// seen or the remembered one when not.
pub fn enemy_aim_target(
    view: &BotView<'_>,
    me: &PlayerSnap,
    target: &TargetNow,
    track: Option<EnemyTrack>,
    t: &Traits,
    clock: &BotClock,
) -> AimTarget {
    let (e, p, visible) = (target.engagement, target.player, target.visible);
    let offset = track.map_or((p.mins + p.maxs) * 0.5, |tr| tr.seen_offset);
    let height = p.maxs.z - p.mins.z;
    let bias = 0.2 * (2.0 * t.weapon_skill - 1.0) + t.aim_height;
    let mut offset = offset + Vec3::Z * (height * bias * 0.35);
    let splash = view
        .weapons
        .get(me.inventory.current)
        .filter(|d| d.has_splash() && d.splash_radius >= 60.0 && d.speed > 0.0);
    if let Some(def) = splash
        && p.on_ground
    {
        // Rockets at the feet: the floor catches what the target sidesteps.
        // A rocket that arrives before a sidestep can be taken (a short
        // flight) is aimed at the body, for the direct hit.
        let flight = me.eye.distance(p.origin) / def.speed;
        let feet = p.mins.z + 6.0;
        offset.z += (feet - offset.z) * t.weapon_skill * 0.8 * (flight / crate::weapons::DODGE_SECONDS).min(1.0);
    }
    offset.z = offset.z.clamp(p.mins.z + 1.0, p.maxs.z - 1.0);
    let (base, velocity) = if visible {
        (p.origin, p.velocity)
    } else {
        track.map_or((p.origin, Vec3::ZERO), |tr| (tr.position, tr.velocity))
    };
    let unseen_s = if visible {
        0.0
    } else {
        clock.ms_since(e.last_seen) / 1000.0
    };
    AimTarget::Enemy {
        point: base + offset,
        velocity,
        visible,
        unseen_s,
        fresh: e.snap,
    }
}
