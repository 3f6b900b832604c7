//! Tactics (`bot_tactical`): how cleverly a bot chooses its fights, a
//! separate axis from skill (how well it aims and reacts).
//!
//! Levels (each includes those below; code asks [`TacticalLevel`] for
//! what it adds by name, `level.rs`, never compares numbers):
//!
//! | level | what it adds |
//! |---|---|
//! | 0 | off: nothing is computed |
//! | 1 | the local force ratio and the stance are computed and reported; nothing acts on them |
//! | 2 | the stack, once armed: armor and health are worth more ([`STACK`]) to a bot holding a strong weapon with ammo (`crate::items::armed`); eyes on the threat: a bot with no target watches the nearest enemy it knows of lately (`Senses::watch_point`: seen, heard or reported) and reacts to such an enemy showing itself near where it was believed to be as to one just lost from view (`Senses::look`'s anticipation); movement follows stance: a stealthy bot walks (silent footsteps) while no enemy knows where it is and one it knows of is within earshot of footsteps ([`EARSHOT_MARGIN`]); a bot falling back (retreat) treats health as critical, and one breaking contact takes cover (the navmesh's nearest spot out of the threat's sight); one outnumbered in a team game with nothing to hide from falls back on its nearest teammate; a cautious, stealthy or retreating bot's routes prefer covered ground; a bot playing an objective (a carrier, an attacker, a defender) neither takes cover nor regroups, takes the shortest routes, and runs whatever its stance; at 3 and up it refuses no fight, at 4 and up never holds fire, at 5 fetches no matchup pickup (the objective layer wins: each of these cost CTF captures) |
//! | 3 | engagement filter: a stealthy bot, or a cautious one outnumbered, engages only an isolated enemy (none other within [`ISOLATED`]), one facing away, one shooting it, or one facing it whose weapon reaches it ([`reaches`]); a fight it should not be in is broken off (and the bot takes cover), and none of these, nor a retreating bot, chase; with no cover near (its last look for cover found none) it refuses no fight |
//! | 4 | weapon matchup ([`Matchup`]): against the weapon its target holds, at their range, a bot switches, closes in or backs off to where it wins, or breaks off a fight it loses at every range within reach (and takes cover) |
//! | 5 | a bot alone and outnumbered goes stealthy; dropped weapons and ammo that win the matchup are fetched ([`pickup_wins`]); stance calls in team chat (falling back, outnumbered) |
//!
//! From level 2 a bot fights for its stack (what it can take before it
//! dies): armor and health are worth more to it than at face value
//! ([`STACK`]: armor twice, health one and a half times), so it takes the
//! armor and the mega health before the fight rather than after it, and
//! tops its health up between fights. A bot playing an objective values
//! them at face value (the objective layer wins). This is most of what a
//! tactical team gains over a plain one (the figures are in the benchmarks
//! and the issue notes).
//!
//! Arm first, then stack: a bot holding no strong weapon with ammo for
//! five shots (`crate::items::armed`) values armor and health at face
//! value, so it fetches a weapon or ammo before the armor. Armor does not
//! win a fight fought with the machinegun: on a Quake 1 map (lqdm12) a
//! level-2 team fired the machinegun for 42 % of its shots against 34 %
//! for the level-0 team, and rockets for 7 % against 10 %.
//!
//! The engagement filter refuses only fights the bot can still refuse. An
//! enemy that faces the bot with a weapon that reaches it (the bot stands
//! within the far edge of the weapon's ideal band) will shoot first if the
//! bot turns away; and where no cover is near, breaking off leaves the bot
//! in the open with its back turned. Both are fought. Refusing them cost
//! the tactical team on maps unlike q_dm1: on dm6 and dm3 level 3 scored
//! 1-3 frags a match fewer than level 2 against level 0, and on void4 (open
//! platforms, no cover near) a level-5 bot refused 47 fights and took 21
//! cover moves in five minutes (q_dm1: 4 and 6).
//!
//! From level 2 a cautious, stealthy or retreating bot's routes prefer
//! covered ground: each step costs more the more exposed the node it
//! leads to ([`COVERED_ROUTE_WEIGHT`] × the navmesh's exposure figure,
//! `quarry_nav::NavMesh::exposure`: the share of sampled spots within
//! 2,000 units that see it, measured when the mesh is built).
//!
//! The force ratio ([`ForceRatio`]) counts, within [`RATIO_RANGE`], the
//! enemies the bot knows about (seen, heard or reported lately, from its
//! memory; never a position it could not know) against its allies (itself,
//! and in team games its living teammates, whose positions a player knows).
//! It is updated about once a second per bot, staggered by slot, and at
//! once when the bot notices a new enemy. The
//! stance ([`Stance`]) follows from the ratio, then from health and ammo
//! ([`stance`]); the bot's style biases it.

mod level;
mod matchup;
mod ratio;

pub use level::TacticalLevel;

pub use matchup::{FIT_FALLOFF, HOPELESS, LOSING, MAX_REPOSITION, MIN_FIT, Matchup, PICKUP_GAIN, band_fit, judge as judge_matchup, pickup_wins, strength};

pub use ratio::{ForceRatio, Forces, RATIO_RANGE, force_counts, force_ratio};

use crate::content::Traits;
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};

/// The highest `bot_tactical` level.
pub const MAX_LEVEL: u8 = 5;
/// How often the force ratio and stance are updated, ms.
pub const UPDATE_MS: f32 = 1000.0;
/// Health under which a bot with no health item near retreats.
pub const RETREAT_HEALTH: i32 = 20;
/// A health item this close counts as within reach, units.
const HEALTH_REACH: f32 = 600.0;
/// An enemy with no other known enemy this close is isolated, units.
pub const ISOLATED: f32 = 400.0;
/// Shot this recently, a retreating (or outgunned) bot shoots back, ms.
pub const RETURN_FIRE_MS: f32 = 2000.0;
/// Known enemies count for isolation while the news is this fresh, ms.
const ISOLATION_NEWS_MS: f32 = 3000.0;
/// A stealthy bot walks while an enemy it knows of is within this many
/// times the range footsteps carry (the enemy may be coming closer).
pub const EARSHOT_MARGIN: f32 = 1.25;

/// How much a cautious, stealthy or retreating bot (level 2 and up) shuns
/// open ground: each step of its routes costs `1 + this × exposure` of
/// where it leads (the navmesh's figure, 0 covered .. 1 seen from
/// everywhere).
pub const COVERED_ROUTE_WEIGHT: f32 = 2.0;

/// What armor and health are worth to a bot fighting for its stack (level
/// 2 and up, not playing an objective), against their face value.
pub const STACK: crate::items::StackWeights = crate::items::StackWeights { armor: 2.0, health: 1.5 };
const _: () = assert!(STACK.armor > 1.0 && STACK.health > 1.0, "the stack is worth more than face value");

/// Why an enemy in sight is not engaged (level 3 and up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Suppress {
    /// Stealthy, and the enemy has company.
    Stealth,
    /// Cautious and outnumbered, and the enemy has company.
    Outnumbered,
    /// Losing on weapons at every range within reach (level 4 and up).
    Matchup,
}

impl Suppress {
    /// Every reason, in order.
    pub const ALL: [Suppress; 3] = [Self::Stealth, Self::Outnumbered, Self::Matchup];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Stealth => "stealth",
            Self::Outnumbered => "outnumbered",
            Self::Matchup => "matchup",
        }
    }
}

/// An enemy whose view is within about 60 degrees of the bot may have seen
/// it (the cosine).
const AWARE_COS: f32 = 0.5;

/// Whether `enemy` faces `me` closely enough to have seen it: one facing
/// away can be fired on first.
pub fn faces(enemy: &PlayerSnap, me: &PlayerSnap) -> bool {
    crate::perception::forward(enemy.pitch, enemy.yaw).dot((me.eye - enemy.eye).normalize_or_zero()) > AWARE_COS
}

/// Whether `enemy`'s weapon in hand reaches `me`: `me` stands within the
/// far edge of that weapon's ideal band (the weapons table's
/// `ideal_range`). An enemy facing a bot it reaches is a fight the bot can
/// no longer refuse ([`Tactics::suppress`]).
pub fn reaches(enemy: &PlayerSnap, me: &PlayerSnap, weapons: &quarry_sim::weapons::WeaponTable) -> bool {
    weapons.get(enemy.inventory.current).is_some_and(|d| d.ideal_band()[1] >= enemy.origin.distance(me.origin))
}

/// Whether the enemy `slot` at `at` is isolated: no other enemy the bot
/// knows about lately within [`ISOLATED`] of it.
pub fn isolated(slot: quarry_sim::SlotId, at: glam::Vec3, memory: &crate::memory::Memory, view: &BotView<'_>, clock: &BotClock) -> bool {
    !memory.tracks().iter().any(|t| {
        t.slot != slot
            && clock.ms_since(t.news_tick) <= ISOLATION_NEWS_MS
            && view.player(t.slot).is_some_and(|p| p.active())
            && t.position.distance(at) <= ISOLATED
    })
}

/// How a bot means to fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Stance {
    /// Press the fight.
    Aggressive,
    /// Fight as it comes.
    Balanced,
    /// Pick fights carefully.
    Cautious,
    /// Avoid being found.
    Stealth,
    /// Break contact, get health or ammo.
    Retreat,
}

impl Stance {
    /// Every stance, in order.
    pub const ALL: [Stance; 5] = [Self::Aggressive, Self::Balanced, Self::Cautious, Self::Stealth, Self::Retreat];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Aggressive => "aggressive",
            Self::Balanced => "balanced",
            Self::Cautious => "cautious",
            Self::Stealth => "stealth",
            Self::Retreat => "retreat",
        }
    }
}

/// Whether `me` has a weapon with ammo besides a melee one.
fn has_usable_ammo(view: &BotView<'_>, me: &PlayerSnap) -> bool {
    view.weapons.iter().any(|w| {
        w.kind != quarry_sim::weapons::WeaponKind::Melee && me.inventory.has(w.number) && (w.ammo_use == 0 || me.inventory.ammo_of(w.number) >= w.ammo_use)
    })
}

/// The stance for `ratio`: dominant → aggressive; advantage → aggressive
/// or balanced (the `roll`, in 0..1, against the bot's aggression); even
/// → balanced; outnumbered → cautious; critical → stealth. A rusher
/// (aggression over 0.7) stays a step bolder when outnumbered or even;
/// a careful style (under 0.35) goes cautious when even. Low health with no
/// health item near, or no usable ammo, is a retreat whatever the ratio.
pub fn stance(ratio: ForceRatio, t: &Traits, low_health: bool, no_ammo: bool, roll: f32) -> Stance {
    if low_health || no_ammo {
        return Stance::Retreat;
    }
    let bold = t.aggression > 0.7;
    let careful = t.aggression < 0.35;
    match ratio {
        ForceRatio::Dominant => Stance::Aggressive,
        ForceRatio::Advantage if roll < 0.3 + 0.6 * t.aggression => Stance::Aggressive,
        ForceRatio::Advantage => Stance::Balanced,
        ForceRatio::Even if bold => Stance::Aggressive,
        ForceRatio::Even if careful => Stance::Cautious,
        ForceRatio::Even => Stance::Balanced,
        ForceRatio::Outnumbered if bold => Stance::Balanced,
        ForceRatio::Outnumbered => Stance::Cautious,
        ForceRatio::Critical => Stance::Stealth,
    }
}

/// One bot's tactical state.
#[derive(Debug, Clone)]
pub struct Tactics {
    /// The latest force ratio.
    pub ratio: ForceRatio,
    /// The counts behind it.
    pub forces: Forces,
    /// The stance it gives.
    pub stance: Stance,
    next_update: u32,
    rng: BotRng,
}

impl Tactics {
    /// The tactics of the bot in `slot`, its rolls from `seed` (a stream
    /// of their own: the bot's other draws are the same at every level).
    pub fn new(seed: u64, slot: u8) -> Self {
        Self {
            ratio: ForceRatio::Even,
            forces: Forces::default(),
            stance: Stance::Balanced,
            next_update: 0,
            rng: BotRng::for_slot(seed, slot, 7),
        }
    }

    /// A new match: rolls start over from `seed`.
    pub fn new_match(&mut self, seed: u64, slot: u8) {
        *self = Self::new(seed, slot);
    }

    /// Whether the bot should walk (level 2 and up): stealthy, no enemy
    /// knows where it is (it is not fighting one in sight and was not shot
    /// lately), and an enemy it knows of is `in_earshot` (within
    /// [`EARSHOT_MARGIN`] times the range footsteps carry). Walking is
    /// worth its half speed only where running would be heard: a bot that
    /// walks across a large map while its enemies are out of earshot
    /// arrives late everywhere and is heard by no one for it.
    pub fn walks(&self, level: TacticalLevel, fighting: bool, shot_lately: bool, in_earshot: bool) -> bool {
        level.moves_by_stance() && self.stance == Stance::Stealth && !fighting && !shot_lately && in_earshot
    }

    /// How much this bot's routes shun open ground (level 2 and up:
    /// [`COVERED_ROUTE_WEIGHT`] when cautious, stealthy or retreating;
    /// else 0, the shortest routes).
    pub fn route_caution(&self, level: TacticalLevel) -> f32 {
        let wary = matches!(self.stance, Stance::Cautious | Stance::Stealth | Stance::Retreat);
        if level.moves_by_stance() && wary { COVERED_ROUTE_WEIGHT } else { 0.0 }
    }

    /// What armor and health are worth to the bot at `level`: [`STACK`]
    /// from level 2 when it is `armed` (`crate::items::armed`) and plays
    /// no objective, else face value (arm first, then stack: see the
    /// module docs).
    pub fn stack(level: TacticalLevel, on_objective: bool, armed: bool) -> crate::items::StackWeights {
        if level.fights_for_stack() && !on_objective && armed { STACK } else { crate::items::StackWeights::FACE }
    }

    /// Whether the stance forbids chasing (level 3 and up).
    pub fn holds_back(&self, level: TacticalLevel) -> bool {
        level.filters_engagements()
            && match self.stance {
                Stance::Stealth | Stance::Retreat => true,
                Stance::Cautious => self.ratio <= ForceRatio::Outnumbered,
                Stance::Aggressive | Stance::Balanced => false,
            }
    }

    /// Level 3 and up: why the enemy `slot` at `at`, in sight, is not to be
    /// engaged, if it is not; `attacker_ms` is how long ago it hit the bot,
    /// `facing` whether it faces the bot (one facing away is fair game:
    /// the bot fires first on it whatever its stance), `reaches` whether
    /// the weapon it holds reaches the bot (the bot stands within the far
    /// edge of that weapon's ideal band: [`reaches`]). An enemy facing the
    /// bot with a weapon that reaches it is a fight already: turning away
    /// from it only hands it the first shot, so it is fought (see the
    /// module docs for the measurement). A bot falling back
    /// fights whoever it meets on the way (its stance moves its feet, not
    /// its trigger: refusing those fights cost a level-3 team 5 frags in
    /// ten minutes of 4v4, 48 seeds on q_dm1), but chases nobody.
    #[expect(clippy::too_many_arguments, reason = "one judgement with everything it weighs")]
    pub fn suppress(
        &self,
        level: TacticalLevel,
        slot: quarry_sim::SlotId,
        at: glam::Vec3,
        attacker_ms: Option<f32>,
        facing: bool,
        reaches: bool,
        memory: &crate::memory::Memory,
        view: &BotView<'_>,
        clock: &BotClock,
    ) -> Option<Suppress> {
        if !level.filters_engagements() {
            return None;
        }
        // Whoever is shooting the bot gets shot back, whatever the stance.
        // In a free-for-all the enemies around are each other's enemies
        // too: being outnumbered there is no reason to hold fire
        // (measured: the filter cost level-3 bots 0.1 kills per death
        // against level-0 ones in FFA). An enemy carrying a flag is always
        // fought.
        let carrier = view.mode.flags.iter().any(|f| matches!(f.status, quarry_sim::modes::view::FlagStatus::Carried { by } if by == slot));
        if attacker_ms.is_some_and(|ms| ms <= RETURN_FIRE_MS) || !view.team_game || carrier || (facing && reaches) {
            return None;
        }
        let alone = || isolated(slot, at, memory, view, clock);
        match self.stance {
            Stance::Stealth if facing && !alone() => Some(Suppress::Stealth),
            Stance::Cautious if facing && self.ratio <= ForceRatio::Outnumbered && !alone() => Some(Suppress::Outnumbered),
            _ => None,
        }
    }

    /// One tick alive at `level`: every [`UPDATE_MS`] (staggered by slot)
    /// the ratio and the stance are worked out again.
    pub fn tick(&mut self, level: TacticalLevel, view: &BotView<'_>, me: &PlayerSnap, memory: &crate::memory::Memory, t: &Traits, clock: &BotClock) {
        if !level.reads_forces() {
            return;
        }
        if clock.tick >= self.next_update {
            self.update(level, view, me, memory, t, clock);
        }
    }

    /// Works the ratio and the stance out now (an enemy just noticed does
    /// not wait for the next second), and schedules the next update. At
    /// level 5 a bot alone (no ally within range) and outnumbered in a team
    /// game goes stealthy rather than cautious.
    pub fn update(&mut self, level: TacticalLevel, view: &BotView<'_>, me: &PlayerSnap, memory: &crate::memory::Memory, t: &Traits, clock: &BotClock) {
        let period = clock.ticks_ms(UPDATE_MS).max(1);
        self.next_update = clock.tick + period - (clock.tick + u32::from(me.slot.0)) % period;
        self.forces = force_counts(view, me, memory, clock);
        self.ratio = self.forces.ratio();
        let health_near = memory
            .items
            .believed()
            .iter()
            .any(|i| i.available && matches!(i.gift, quarry_sim::items::Gift::Health { .. }) && i.origin.distance(me.origin) <= HEALTH_REACH);
        let low = me.health < RETREAT_HEALTH && !health_near;
        let roll = self.rng.unit();
        self.stance = stance(self.ratio, t, low, !has_usable_ammo(view, me), roll);
        if level.plays_the_odds() && view.team_game && self.stance == Stance::Cautious && self.forces.allies <= 1 && self.ratio == ForceRatio::Outnumbered {
            self.stance = Stance::Stealth;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_counts_from_level_two_off_the_objective() {
        assert_eq!(Tactics::stack(TacticalLevel::new(0), false, true), crate::items::StackWeights::FACE);
        assert_eq!(Tactics::stack(TacticalLevel::new(1), false, true), crate::items::StackWeights::FACE);
        assert_eq!(Tactics::stack(TacticalLevel::new(2), false, true), STACK);
        assert_eq!(Tactics::stack(TacticalLevel::new(5), false, true), STACK);
        assert_eq!(Tactics::stack(TacticalLevel::new(5), true, true), crate::items::StackWeights::FACE, "the objective layer wins");
        assert_eq!(Tactics::stack(TacticalLevel::new(5), false, false), crate::items::StackWeights::FACE, "arm first, then stack");
    }

    #[test]
    fn an_outnumbered_bot_refuses_a_facing_enemy_only_beyond_its_weapons_reach() {
        use crate::objective::testkit::{Kit, player};
        use glam::Vec3;
        use quarry_sim::Team;
        use quarry_sim::rules::GameType;
        let kit = Kit::new();
        let machinegun = kit.weapons.by_name("machinegun").map_or(0, |d| d.number);
        let reach = kit.weapons.get(machinegun).map_or(0.0, |d| d.ideal_band()[1]);
        let judge = |d: f32| {
            let me = player(0, Team::Red, Vec3::ZERO);
            // Two enemies together, the nearer facing the bot (yaw 180).
            let mut foe = player(1, Team::Blue, Vec3::X * d);
            foe.yaw = 180.0;
            foe.inventory.weapons |= 1 << machinegun;
            foe.inventory.current = machinegun;
            let mate = player(2, Team::Blue, Vec3::new(d + 100.0, 0.0, 0.0));
            let view = kit.view(GameType::Tdm, vec![me, foe, mate]);
            let mut memory = crate::memory::Memory::default();
            memory.see(foe.slot, view.clock.tick, foe.origin, Vec3::ZERO, Vec3::ZERO);
            memory.see(mate.slot, view.clock.tick, mate.origin, Vec3::ZERO, Vec3::ZERO);
            let mut tactics = Tactics::new(1, 0);
            tactics.stance = Stance::Cautious;
            tactics.ratio = ForceRatio::Outnumbered;
            let facing = faces(&foe, &me);
            assert!(facing, "the foe faces the bot");
            tactics.suppress(TacticalLevel::new(3), foe.slot, foe.origin, None, facing, reaches(&foe, &me, &kit.weapons), &memory, &view, &view.clock)
        };
        assert_eq!(judge(reach - 100.0), None, "a facing enemy whose weapon reaches the bot is a fight already");
        assert_eq!(judge(reach + 300.0), Some(Suppress::Outnumbered), "beyond its reach the fight can still be refused");
    }

    #[test]
    fn a_stealthy_bot_walks_only_where_running_would_be_heard() {
        let mut t = Tactics::new(1, 0);
        t.stance = Stance::Stealth;
        let level = TacticalLevel::new(2);
        assert!(t.walks(level, false, false, true), "an enemy within earshot: walk");
        assert!(!t.walks(level, false, false, false), "none within earshot: run");
        assert!(!t.walks(level, true, false, true), "fighting: run");
        assert!(!t.walks(level, false, true, true), "shot lately: run");
        assert!(!t.walks(TacticalLevel::new(1), false, false, true), "level 1 only reports the stance");
        t.stance = Stance::Cautious;
        assert!(!t.walks(level, false, false, true), "only a stealthy bot walks");
    }

    #[test]
    fn stance_follows_the_ratio_then_health_and_style() {
        let t = Traits::at_skill(3.0);
        assert_eq!(stance(ForceRatio::Dominant, &t, false, false, 0.9), Stance::Aggressive);
        assert_eq!(stance(ForceRatio::Even, &t, false, false, 0.0), Stance::Balanced);
        assert_eq!(stance(ForceRatio::Outnumbered, &t, false, false, 0.0), Stance::Cautious);
        assert_eq!(stance(ForceRatio::Critical, &t, false, false, 0.0), Stance::Stealth);
        assert_eq!(stance(ForceRatio::Dominant, &t, true, false, 0.0), Stance::Retreat, "low health overrides");
        assert_eq!(stance(ForceRatio::Dominant, &t, false, true, 0.0), Stance::Retreat, "no ammo overrides");
        // Advantage: the roll against aggression (0.5: aggressive below 0.6).
        assert_eq!(stance(ForceRatio::Advantage, &t, false, false, 0.5), Stance::Aggressive);
        assert_eq!(stance(ForceRatio::Advantage, &t, false, false, 0.7), Stance::Balanced);
        let rusher = Traits { aggression: 0.9, ..t };
        assert_eq!(stance(ForceRatio::Outnumbered, &rusher, false, false, 0.0), Stance::Balanced);
        let sniper = Traits { aggression: 0.3, ..t };
        assert_eq!(stance(ForceRatio::Even, &sniper, false, false, 0.0), Stance::Cautious);
    }
}
