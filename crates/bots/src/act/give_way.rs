//! Giving way where two players meet head-on, as people do in a corridor:
//! where there is room to pass, both keep to their right; in a passage too
//! narrow for two (a doorway, a ledge, the way to a crawl's mouth), one
//! backs out and the other comes through. Only on walking legs: on a
//! committed action (a crawl, a jump, a ride) the route alone steers.
//!
//! - A **blocker** is a living player in the way: ahead along the route's
//!   heading within [`BLOCK_RANGE`], its box overlapping the bot's path
//!   sideways, at about the same height, and not going the same way (one
//!   walking ahead is followed, not given way to).
//! - The way is **narrow** where the free width across it at the bot (its
//!   box swept to either side) is under [`PASS_WIDTH`], two boxes and a
//!   margin.
//! - Room to pass: the bot steps to its right ([`KEEP_RIGHT`]); the other
//!   does the same, from its side.
//! - Narrow: the one in the higher slot backs the way it came, until the
//!   blocker has been out of its way for [`CLEAR_MS`] or for at most
//!   [`YIELD_MAX_MS`]; the other presses on. One blocked for
//!   [`PATIENCE_MS`] by someone who does not back off (a person, or a bot
//!   that has just given way) backs off whatever the slots say. After
//!   backing off a bot presses on for [`YIELD_COOLDOWN_MS`] before it gives
//!   way again, so two never back off from each other for ever.
//! - A bot whose combat target is the blocker does not give way: the
//!   fight decides who comes through. Nor does one going to the blocker
//!   (its route ends within [`GOING_TO`] of it: a teammate it follows, a
//!   player it meets).
//! - While it backs off, or faces its target in its way, no route progress
//!   is owed (the follower's stuck sampling starts over): it is waiting
//!   on purpose, for a while that has an end.
//!
//! What this must not do: move a bot off a ledge or into lava (backing
//! off checks the floor behind first, and waits where it is unsafe).

use glam::Vec3;
use quarry_map::{Contents, Trace};

use crate::combat_move::floor_ahead_is_safe;
use crate::view::{BotClock, BotView, PlayerSnap};

/// How far ahead (centre to centre, along the heading) a player is in the
/// way, units: two boxes touching and a stride.
pub const BLOCK_RANGE: f32 = 72.0;
/// Sideways (from the heading's line) a player's centre is in the way:
/// the two boxes overlap, units.
const IN_LINE: f32 = 30.0;
/// A player going the bot's way faster than this is walking ahead of it,
/// not in its way, units/s.
const GOING_AHEAD: f32 = 40.0;
/// Height difference within which a player is on the same floor, units.
const SAME_FLOOR: f32 = 40.0;
/// How far to either side the free width is looked for, units.
const LOOK_SIDE: f32 = 48.0;
/// Free width across the way under which two players cannot pass, units:
/// two 32-unit boxes and 16 to spare.
pub const PASS_WIDTH: f32 = 80.0;
/// The share of a stride stepped to the right to pass.
pub const KEEP_RIGHT: f32 = 0.7;
/// Backing off lasts at most this long, ms.
pub const YIELD_MAX_MS: f32 = 3000.0;
/// And ends once the blocker has been out of the way this long, ms.
pub const CLEAR_MS: f32 = 300.0;
/// Blocked this long by someone who does not back off, a bot backs off
/// whatever the slots say, ms.
pub const PATIENCE_MS: f32 = 1500.0;
/// After backing off, a bot presses on this long before it gives way
/// again, ms.
pub const YIELD_COOLDOWN_MS: f32 = 2000.0;
/// A route ending within this of a player goes to that player, units.
pub const GOING_TO: f32 = 96.0;
/// The combat target within this of the blocker is the blocker, units.
const SAME_PLAYER: f32 = 24.0;

/// What giving way asks of the feet this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Giving {
    /// Nothing in the way.
    Nothing,
    /// Add this sideways step to pass on the right.
    KeepRight(Vec3),
    /// Back off: move this way instead (zero: wait, the floor behind is
    /// unsafe). No route progress is owed.
    BackOff(Vec3),
    /// The combat target stands in the way: the fight goes on, no route
    /// progress is owed.
    FaceOff,
}

/// A bot's state of giving way.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GiveWay {
    /// Backing off since this tick, in this direction.
    backing: Option<(u32, Vec3)>,
    /// When the blocker was last in the way while backing off.
    last_blocked: u32,
    /// Blocked by someone (who has not backed off) since this tick.
    blocked_since: Option<u32>,
    /// No giving way before this tick.
    cooldown_until: u32,
}

impl GiveWay {
    /// Forgets everything (a new life).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// What to do about players in the way of `heading` (the route's
    /// direction this tick; zero without one) on a route ending at
    /// `route_end`. `target` is the combat target's position when it is
    /// seen; `world` the map near the bot.
    #[expect(clippy::too_many_arguments, reason = "the tick's inputs, each read")]
    pub fn decide(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        heading: Vec3,
        route_end: Option<Vec3>,
        target: Option<Vec3>,
        world: &dyn Trace,
        clock: &BotClock,
    ) -> Giving {
        let heading = Vec3::new(heading.x, heading.y, 0.0).normalize_or_zero();
        if let Some((since, back)) = self.backing {
            // Ahead is where the bot was going when it began to back off.
            if blocker(view, me, -back).is_some() {
                self.last_blocked = clock.tick;
            }
            let done = clock.ms_since(since) >= YIELD_MAX_MS || clock.ms_since(self.last_blocked) >= CLEAR_MS;
            if !done {
                return back_off(world, me, back);
            }
            self.backing = None;
            self.blocked_since = None;
            self.cooldown_until = clock.after_ms(YIELD_COOLDOWN_MS);
        }
        if heading == Vec3::ZERO {
            self.blocked_since = None;
            return Giving::Nothing;
        }
        let Some(other) = blocker(view, me, heading) else {
            self.blocked_since = None;
            return Giving::Nothing;
        };
        if target.is_some_and(|t| t.distance(other.origin) <= SAME_PLAYER) {
            return Giving::FaceOff;
        }
        if route_end.is_some_and(|end| end.distance(other.origin) <= GOING_TO) {
            self.blocked_since = None;
            return Giving::Nothing;
        }
        let since = *self.blocked_since.get_or_insert(clock.tick);
        if !narrow(world, me, heading) {
            return Giving::KeepRight(Vec3::new(heading.y, -heading.x, 0.0) * KEEP_RIGHT);
        }
        let my_turn = me.slot > other.slot || clock.ms_since(since) >= PATIENCE_MS;
        if my_turn && clock.tick >= self.cooldown_until {
            self.backing = Some((clock.tick, -heading));
            self.last_blocked = clock.tick;
            return back_off(world, me, -heading);
        }
        Giving::Nothing
    }

    /// Whether the bot is backing off now.
    pub fn backing_off(&self) -> bool {
        self.backing.is_some()
    }
}

/// Backing off `back`, where the floor that way is safe; else waiting.
fn back_off(world: &dyn Trace, me: &PlayerSnap, back: Vec3) -> Giving {
    let safe = me.on_ground && floor_ahead_is_safe(world, me, back);
    Giving::BackOff(if safe { back } else { Vec3::ZERO })
}

/// The nearest living player in the way of `heading` from `me`.
fn blocker<'v>(view: &'v BotView<'_>, me: &PlayerSnap, heading: Vec3) -> Option<&'v PlayerSnap> {
    let mut best: Option<(f32, &PlayerSnap)> = None;
    for p in view.iter_players() {
        let going_ahead = p.velocity.dot(heading) > GOING_AHEAD;
        if p.slot == me.slot || !p.alive || going_ahead || (p.origin.z - me.origin.z).abs() > SAME_FLOOR {
            continue;
        }
        let d = Vec3::new(p.origin.x - me.origin.x, p.origin.y - me.origin.y, 0.0);
        let ahead = d.dot(heading);
        let aside = (d - heading * ahead).length();
        if ahead > 0.0 && ahead <= BLOCK_RANGE && aside < IN_LINE && best.is_none_or(|(a, _)| ahead < a) {
            best = Some((ahead, p));
        }
    }
    best.map(|(_, p)| p)
}

/// Whether the way across `heading` at `me` is too narrow for two players
/// to pass: the free width (the bot's box swept to either side, plus its
/// own width) under [`PASS_WIDTH`].
fn narrow(world: &dyn Trace, me: &PlayerSnap, heading: Vec3) -> bool {
    let right = Vec3::new(heading.y, -heading.x, 0.0);
    let start = me.origin + Vec3::Z * 2.0;
    let free = |dir: Vec3| {
        let tr = world.trace(start, start + dir * LOOK_SIDE, me.mins, me.maxs, Contents::MASK_PLAYER_SOLID);
        if tr.start_solid { 0.0 } else { tr.fraction * LOOK_SIDE }
    };
    free(right) + free(-right) + (me.maxs.x - me.mins.x) < PASS_WIDTH
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::testkit::{Kit, player};
    use quarry_map::{LoadOptions, load_str};
    use quarry_sim::Team;
    use quarry_sim::rules::GameType;

    fn block(lo: Vec3, hi: Vec3) -> String {
        quarry_map::source::box_brush(lo, hi, "quarry/wall")
    }

    /// A floor, and along x a corridor `width` wide (walls either side).
    fn corridor(width: f32) -> Kit {
        let h = width / 2.0;
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}{}}}\n",
            block(Vec3::new(-512.0, -256.0, -16.0), Vec3::new(512.0, 256.0, 0.0)),
            block(Vec3::new(-512.0, h, 0.0), Vec3::new(512.0, h + 32.0, 128.0)),
            block(Vec3::new(-512.0, -h - 32.0, 0.0), Vec3::new(512.0, -h, 128.0)),
        );
        Kit { map: load_str(&text, "corridor.map", &LoadOptions::default()).expect("map"), ..Kit::new() }
    }

    fn at(slot: u8, x: f32) -> PlayerSnap {
        player(slot, Team::Free, Vec3::new(x, 0.0, 0.0))
    }

    fn clock(tick: u32) -> BotClock {
        BotClock { tick, hz: 60 }
    }

    #[test]
    fn in_a_narrow_way_the_higher_slot_backs_off_and_the_lower_presses_on() {
        let kit = corridor(64.0);
        let (a, b) = (at(1, 0.0), at(2, 60.0));
        let view = kit.view(GameType::Ffa, vec![a, b]);
        let w = kit.map.world();
        let (mut ga, mut gb) = (GiveWay::default(), GiveWay::default());
        assert_eq!(ga.decide(&view, &a, Vec3::X, None, None, w, &clock(100)), Giving::Nothing, "slot 1 presses on");
        assert_eq!(gb.decide(&view, &b, Vec3::NEG_X, None, None, w, &clock(100)), Giving::BackOff(Vec3::X), "slot 2 backs the way it came");
        assert!(gb.backing_off());
        // Still in the way a moment later: still backing off.
        assert_eq!(gb.decide(&view, &b, Vec3::NEG_X, None, None, w, &clock(110)), Giving::BackOff(Vec3::X));
        // Its target in the way: a face-off, not giving way.
        let mut g = GiveWay::default();
        assert_eq!(g.decide(&view, &b, Vec3::NEG_X, None, Some(a.origin), w, &clock(100)), Giving::FaceOff);
        // Going to the player in its way (following it): no giving way.
        let mut g = GiveWay::default();
        assert_eq!(g.decide(&view, &b, Vec3::NEG_X, Some(a.origin), None, w, &clock(100)), Giving::Nothing);
    }

    #[test]
    fn with_room_to_pass_both_keep_right_and_patience_runs_out() {
        let wide = corridor(160.0);
        let (a, b) = (at(1, 0.0), at(2, 60.0));
        let view = wide.view(GameType::Ffa, vec![a, b]);
        let mut g = GiveWay::default();
        match g.decide(&view, &a, Vec3::X, None, None, wide.map.world(), &clock(100)) {
            Giving::KeepRight(d) => assert!(d.y < 0.0 && d.x.abs() < 1e-6, "right of +x is -y: {d:?}"),
            other => panic!("expected keep right, got {other:?}"),
        }
        // Narrow, and slot 1 blocked by someone who will not back off: it
        // backs off once its patience is out, and not again until its
        // cool-down is over.
        let kit = corridor(64.0);
        let view = kit.view(GameType::Ffa, vec![a, b]);
        let w = kit.map.world();
        let mut g = GiveWay::default();
        assert_eq!(g.decide(&view, &a, Vec3::X, None, None, w, &clock(100)), Giving::Nothing);
        assert_eq!(g.decide(&view, &a, Vec3::X, None, None, w, &clock(195)), Giving::BackOff(Vec3::NEG_X), "1.58 s blocked");
        assert_eq!(g.decide(&view, &a, Vec3::X, None, None, w, &clock(385)), Giving::Nothing, "past the longest back-off, cooling down");
        assert!(!g.backing_off());
    }

    #[test]
    fn nobody_aside_above_behind_or_walking_ahead_is_in_the_way() {
        let kit = corridor(64.0);
        let a = at(1, 0.0);
        let beside = player(2, Team::Free, Vec3::new(40.0, 40.0, 0.0));
        let mut above = player(3, Team::Free, Vec3::new(40.0, 0.0, 0.0));
        above.origin.z += 96.0;
        let behind = at(4, -50.0);
        let mut walking_ahead = at(5, 50.0);
        walking_ahead.velocity = Vec3::X * 200.0;
        let view = kit.view(GameType::Ffa, vec![a, beside, above, behind, walking_ahead]);
        let mut g = GiveWay::default();
        assert_eq!(g.decide(&view, &a, Vec3::X, None, None, kit.map.world(), &clock(100)), Giving::Nothing);
    }
}
