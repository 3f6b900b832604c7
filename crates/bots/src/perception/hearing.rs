//! [`Hearing`]: what a bot makes of the sounds it hears and the reports
//! its teammates send, as a person would: a position estimate, not the
//! truth; one noise kept at a time; acted on after a reaction time; and a
//! roll on whether it is worth a look.
//!
//! - **Estimate**: a heard sound's position is off by up to
//!   [`ERROR_PER_UNIT`] times its distance (±400 units at 2,000, the
//!   reference's figure), in a random direction, then moved onto the
//!   navmesh (where a player could stand). The truth never leaves the
//!   percept.
//! - **Memory**: one noise, kept [`NOISE_MEMORY_MS`]. A new one replaces it
//!   only when more dangerous (gunfire and explosions over pain, pain over
//!   movement, movement over a teammate's report, a report over doors), or
//!   as dangerous and closer, or when the
//!   kept one is old or comes from the same player (a continuing noise is
//!   weighed again every [`RECONSIDER_MS`]).
//! - **Alert**: a noise within [`ALERT_DISTANCE`] keeps the bot alert for
//!   [`ALERT_MS`] (it notices enemies in view more readily).
//! - **Reaction**: a noise is acted on once, a reaction time after it was
//!   heard ([`Hearing::due`]): the brain then remembers it, looks toward
//!   it, and rolls [`investigate_chance`] on going to look.
//!
//! Reports (team chat) enter through the same door ([`Hearing::consider`])
//! with their own uncertainty; they are not sounds, but a lead to look into
//! all the same.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::events::SoundKind;

use super::events::HeardSound;
use crate::navigate::Navigator;
use crate::rng::BotRng;
use crate::view::BotClock;

/// A heard position is off by up to this share of its distance (±400 at 2,000).
pub const ERROR_PER_UNIT: f32 = 0.2;
/// How long a noise is kept, ms.
pub const NOISE_MEMORY_MS: f32 = 3000.0;
/// A noise closer than this makes the bot alert, units.
pub const ALERT_DISTANCE: f32 = 1000.0;
/// How long alertness lasts after such a noise, ms.
pub const ALERT_MS: f32 = 4000.0;
/// A continuing noise (a fight going on) is weighed again this often, ms.
pub const RECONSIDER_MS: f32 = 1500.0;
/// An investigation gives up after this long, ms.
pub const INVESTIGATE_MS: f32 = 10_000.0;

/// How much a lead matters (higher replaces lower).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Danger {
    /// A door or lift: someone may be near.
    Mover,
    /// A teammate's report of an enemy (second-hand and older than what
    /// the bot hears itself).
    Report,
    /// Steps, jumps, landings, pads, teleporters, pickups.
    Movement,
    /// Someone hurt: a fight.
    Pain,
    /// Gunfire and explosions (and a teammate's call for help).
    Combat,
}

impl Danger {
    /// The danger of a sound.
    pub fn of(kind: SoundKind) -> Self {
        match kind {
            SoundKind::Gunfire(_) | SoundKind::Explosion => Danger::Combat,
            SoundKind::Pain => Danger::Pain,
            SoundKind::Mover => Danger::Mover,
            _ => Danger::Movement,
        }
    }
}

/// A lead the bot keeps: a noise it heard or a report it was given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    /// Who (`None`: a door or a lift).
    pub source: Option<SlotId>,
    /// How much it matters.
    pub danger: Danger,
    /// Where the bot believes it came from.
    pub estimate: Vec3,
    /// How far off that may be, units.
    pub error: f32,
    /// How far from the bot it was, units.
    pub distance: f32,
    /// When it happened (a report: when the speaker knew it).
    pub tick: u32,
    /// When the bot acts on it.
    pub act_at: u32,
    /// Acted on already.
    pub handled: bool,
    /// A teammate's report (already in memory as such), not a sound.
    pub reported: bool,
    /// How strongly it draws the bot to look, 0..: 1 for a sound; a report
    /// less as it ages, a call for help more.
    pub pull: f32,
}

/// One bot's hearing: the noise it keeps and its alertness.
#[derive(Debug, Clone, Default)]
pub struct Hearing {
    /// The noise kept, if any.
    pub noise: Option<Noise>,
    /// Alert until this tick.
    pub alert_until: u32,
}

/// Where a sound `distance` away seems to come from: `truth` moved by up
/// to [`ERROR_PER_UNIT`] × `distance` (uniform over a disc, a little up or
/// down), then onto the navmesh when a point is near. Returns the estimate
/// and its error bound.
pub fn estimate(truth: Vec3, distance: f32, nav: &mut dyn Navigator, rng: &mut BotRng) -> (Vec3, f32) {
    let (guess, error) = rough_estimate(truth, distance, rng);
    (onto_mesh(guess, error, nav), error)
}

/// [`estimate`] before it is moved onto the navmesh: `truth` moved at
/// random, and the error bound. Draws the same numbers from `rng`.
fn rough_estimate(truth: Vec3, distance: f32, rng: &mut BotRng) -> (Vec3, f32) {
    let error = ERROR_PER_UNIT * distance.max(0.0);
    let angle = rng.unit() * std::f32::consts::TAU;
    let r = error * rng.unit().sqrt();
    let off = Vec3::new(angle.cos() * r, angle.sin() * r, rng.signed() * 0.15 * r);
    (truth + off, error)
}

/// A rough estimate moved onto the navmesh when a point is near (within
/// its error, at least 96 units); else kept as it is.
fn onto_mesh(guess: Vec3, error: f32, nav: &mut dyn Navigator) -> Vec3 {
    nav.nearest(guess, error.max(96.0)).unwrap_or(guess)
}

impl Hearing {
    /// A new life: nothing kept, not alert.
    pub fn reset_life(&mut self) {
        *self = Self::default();
    }

    /// Whether the bot is alert at `clock`.
    pub fn alert(&self, clock: &BotClock) -> bool {
        clock.tick < self.alert_until
    }

    /// A sound heard now: estimated and offered to the memory; acted on
    /// after `reaction_ms`. Returns whether it was kept.
    ///
    /// The estimate is moved onto the navmesh only when the noise is kept
    /// (the memory's choice reads none of it, and the snap's walkability
    /// probes are most of a bot's hearing cost), with the same random
    /// draws either way.
    pub fn hear(&mut self, s: &HeardSound, reaction_ms: f32, nav: &mut dyn Navigator, clock: &BotClock, rng: &mut BotRng) -> bool {
        let (guess, error) = rough_estimate(s.origin, s.distance, rng);
        if s.distance <= ALERT_DISTANCE {
            self.alert_until = self.alert_until.max(clock.after_ms(ALERT_MS));
        }
        let noise = Noise {
            source: s.source,
            danger: Danger::of(s.kind),
            estimate: guess,
            error,
            distance: s.distance,
            tick: clock.tick,
            act_at: clock.after_ms(reaction_ms),
            handled: false,
            reported: false,
            pull: 1.0,
        };
        if !self.replaces(&noise, clock) {
            return false;
        }
        let estimate = onto_mesh(guess, error, nav);
        self.consider(Noise { estimate, ..noise }, clock)
    }

    /// Whether `n` would replace the kept noise ([`Hearing::consider`]'s rule).
    fn replaces(&self, n: &Noise, clock: &BotClock) -> bool {
        match self.noise {
            None => true,
            Some(old) => {
                clock.ms_since(old.tick) > NOISE_MEMORY_MS
                    || (old.source.is_some() && old.source == n.source && n.danger >= old.danger)
                    || n.danger > old.danger
                    || (n.danger == old.danger && n.distance < old.distance)
            }
        }
    }

    /// Offers a lead; it replaces the kept one only when that one is gone
    /// or older than [`NOISE_MEMORY_MS`], comes from the same player, or the
    /// new one is more dangerous, or as dangerous and closer. Returns
    /// whether it was kept.
    pub fn consider(&mut self, n: Noise, clock: &BotClock) -> bool {
        let replace = self.replaces(&n, clock);
        if replace {
            // A fresher word about a lead acted on lately needs no new
            // reaction (a continuing fight is weighed again every
            // RECONSIDER_MS, not at every shot).
            // A reaction under way keeps running: a new noise does not
            // push it back.
            self.noise = Some(match self.noise {
                Some(o) if o.handled && o.source.is_some() && o.source == n.source && o.danger == n.danger && clock.ms_since(o.act_at) <= RECONSIDER_MS => {
                    Noise { handled: true, act_at: o.act_at, ..n }
                }
                Some(o) if !o.handled => Noise { act_at: o.act_at.min(n.act_at), ..n },
                _ => n,
            });
        }
        replace
    }

    /// The noise to act on now, once: kept, not yet handled, and its
    /// reaction time over. A noise past its memory is dropped.
    pub fn due(&mut self, clock: &BotClock) -> Option<Noise> {
        let n = self.noise.as_mut()?;
        if clock.ms_since(n.tick) > NOISE_MEMORY_MS + 1000.0 {
            self.noise = None;
            return None;
        }
        if n.handled || clock.tick < n.act_at {
            return None;
        }
        n.handled = true;
        Some(*n)
    }
}

/// What the investigation roll weighs besides the noise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Busy {
    /// Living teammates (self not counted).
    pub teammates: u32,
    /// An objective the bot must not leave is offered.
    pub objective: bool,
    /// In a fight (the target seen).
    pub fighting: bool,
    /// Hurt enough to want health.
    pub hurt: bool,
}

/// The chance a bot goes to look at `noise`: more the closer it is (none
/// beyond `investigate_range`), less with more living teammates to do it,
/// much less when busy (an objective, low health), none in a fight.
pub fn investigate_chance(noise: &Noise, investigate_range: f32, busy: Busy) -> f32 {
    if busy.fighting || noise.distance > investigate_range {
        return 0.0;
    }
    let closeness = 1.0 - noise.distance / investigate_range.max(1.0);
    let mut p = (0.3 + 0.65 * closeness) * noise.pull.max(0.0);
    p /= 1.0 + 0.35 * busy.teammates as f32;
    if busy.objective {
        p *= 0.25;
    }
    if busy.hurt {
        p *= 0.4;
    }
    if noise.danger == Danger::Mover {
        p *= 0.5;
    }
    p.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigate::StraightNavigator;

    fn noise(danger: Danger, distance: f32, tick: u32, source: u8) -> Noise {
        Noise {
            source: Some(SlotId(source)),
            danger,
            estimate: Vec3::X * distance,
            error: 0.0,
            distance,
            tick,
            act_at: tick + 10,
            handled: false,
            reported: false,
            pull: 1.0,
        }
    }

    #[test]
    fn estimates_err_in_proportion_to_distance() {
        let mut nav = StraightNavigator::default();
        let mut rng = BotRng::for_slot(7, 1, 0);
        let mean_error = |d: f32, nav: &mut StraightNavigator, rng: &mut BotRng| {
            let truth = Vec3::new(d, 0.0, 0.0);
            let n = 400;
            let sum: f32 = (0..n).map(|_| estimate(truth, d, nav, rng).0.distance(truth)).sum();
            sum / n as f32
        };
        let near = mean_error(200.0, &mut nav, &mut rng);
        let far = mean_error(2000.0, &mut nav, &mut rng);
        assert!(far > 5.0 * near, "error grows with distance: {near} at 200, {far} at 2000");
        assert!(far < 400.0 * 1.1 && far > 150.0, "±400 at 2000: mean {far}");
    }

    #[test]
    fn a_noise_is_replaced_only_by_a_worse_or_closer_one() {
        let clock = |tick| BotClock { tick, hz: 60 };
        let mut h = Hearing::default();
        assert!(h.consider(noise(Danger::Pain, 800.0, 0, 1), &clock(0)));
        assert!(!h.consider(noise(Danger::Movement, 100.0, 5, 2), &clock(5)), "steps do not replace a fight");
        assert!(!h.consider(noise(Danger::Pain, 900.0, 5, 2), &clock(5)), "as bad but farther");
        assert!(h.consider(noise(Danger::Pain, 500.0, 6, 2), &clock(6)), "as bad and closer");
        assert!(h.consider(noise(Danger::Combat, 1500.0, 7, 3), &clock(7)), "gunfire");
        assert!(h.consider(noise(Danger::Movement, 1500.0, 300, 4), &clock(300)), "the old one is stale");
    }

    /// A navigator that snaps every point 10 units up and counts its snaps.
    #[derive(Default)]
    struct CountingNav {
        snaps: u32,
    }

    impl Navigator for CountingNav {
        fn ready(&self) -> bool {
            true
        }
        fn route(&mut self, _: Vec3, _: Vec3, _: crate::navigate::Traveller) -> Option<crate::navigate::Route> {
            None
        }
        fn nearest(&mut self, point: Vec3, _: f32) -> Option<Vec3> {
            self.snaps += 1;
            Some(point + Vec3::Z * 10.0)
        }
        fn random_route(&mut self, _: Vec3, _: crate::navigate::Traveller, _: &mut BotRng) -> Option<crate::navigate::Route> {
            None
        }
        fn describe(&self) -> String {
            "counting".to_owned()
        }
    }

    #[test]
    fn only_a_kept_noise_is_moved_onto_the_mesh_and_the_draws_are_the_same() {
        let clock = BotClock { tick: 10, hz: 60 };
        let sound = |kind, source: u8, distance: f32| HeardSound { source: Some(SlotId(source)), kind, origin: Vec3::new(distance, 0.0, 0.0), distance, range: 3000.0 };
        let mut nav = CountingNav::default();
        let mut rng = BotRng::for_slot(3, 1, 0);
        let mut h = Hearing::default();
        assert!(h.hear(&sound(SoundKind::Explosion, 1, 800.0), 200.0, &mut nav, &clock, &mut rng));
        assert_eq!(nav.snaps, 1);
        // The kept estimate is the snapped one, as estimate() gives it.
        let mut again = BotRng::for_slot(3, 1, 0);
        let (want, _) = estimate(Vec3::new(800.0, 0.0, 0.0), 800.0, &mut CountingNav::default(), &mut again);
        assert_eq!(h.noise.map(|n| n.estimate), Some(want));
        // Steps under a fight are not kept: no snap, but the same draws.
        assert!(!h.hear(&sound(SoundKind::Footstep, 2, 300.0), 200.0, &mut nav, &clock, &mut rng));
        assert_eq!(nav.snaps, 1);
        let _ = estimate(Vec3::new(300.0, 0.0, 0.0), 300.0, &mut CountingNav::default(), &mut again);
        assert_eq!(rng.unit(), again.unit(), "the random stream is where it would be");
    }

    #[test]
    fn a_noise_is_acted_on_once_after_the_reaction() {
        let clock = |tick| BotClock { tick, hz: 60 };
        let mut h = Hearing::default();
        h.consider(noise(Danger::Combat, 500.0, 100, 1), &clock(100));
        assert_eq!(h.due(&clock(105)), None, "still reacting");
        assert!(h.due(&clock(110)).is_some());
        assert_eq!(h.due(&clock(111)), None, "once");
    }

    #[test]
    fn investigating_is_likelier_close_alone_and_idle() {
        let idle = Busy { teammates: 0, objective: false, fighting: false, hurt: false };
        let near = investigate_chance(&noise(Danger::Combat, 200.0, 0, 1), 1600.0, idle);
        let far = investigate_chance(&noise(Danger::Combat, 1400.0, 0, 1), 1600.0, idle);
        assert!(near > far && far > 0.0);
        assert_eq!(investigate_chance(&noise(Danger::Combat, 600.0, 0, 1), 450.0, idle), 0.0, "an ambusher stays put");
        let team = investigate_chance(&noise(Danger::Combat, 200.0, 0, 1), 1600.0, Busy { teammates: 3, ..idle });
        assert!(team < near);
        let fighting = investigate_chance(&noise(Danger::Combat, 200.0, 0, 1), 1600.0, Busy { fighting: true, ..idle });
        assert_eq!(fighting, 0.0);
    }
}
