//! [`NearWorld`]: the world as one bot's movement checks see it this tick,
//! the hulls around the bot gathered once, on the first check that needs
//! them.
//!
//! A command's safety checks (is there floor ahead, which heading keeps
//! the bot on the ledge, where a dodge's hop comes down) are a dozen or
//! more short sweeps and floor probes within a stride of the bot; each
//! walked the world's tree from its root, which cost more than the
//! clipping. A [`Nearby`] view gathers the hulls around the bot once and
//! answers every trace that stays in its box from that short list, with
//! the same tests in the same order (the same results bit for bit);
//! longer ones go through the whole world as before.
//!
//! What it must not do: hold anything past the tick (movers move).

use std::cell::OnceCell;

use glam::Vec3;
use quarry_map::{CollisionWorld, Contents, EntityId, Nearby, Trace, TraceResult};

use crate::combat_move::SAFETY_PROBE;

/// How far across from the bot the hulls are gathered: a full safety
/// probe plus the box's half width and a margin, units.
const ACROSS: f32 = SAFETY_PROBE + 24.0;
/// How far below the bot's origin: a floor probe's 100-unit drop from 12
/// units over the feet (the box's 24 below the origin), and a margin.
const BELOW: f32 = 136.0;
/// How far above the bot's origin: the box's top and a margin.
const ABOVE: f32 = 64.0;

/// The world around one bot for its movement checks; see the module docs.
pub struct NearWorld<'w> {
    world: &'w CollisionWorld,
    origin: Vec3,
    near: OnceCell<Nearby<'w>>,
}

impl<'w> NearWorld<'w> {
    /// The world as seen from a bot standing at `origin`; nothing is
    /// gathered until the first trace.
    pub fn around(world: &'w CollisionWorld, origin: Vec3) -> Self {
        Self { world, origin, near: OnceCell::new() }
    }

    fn near(&self) -> &Nearby<'w> {
        self.near.get_or_init(|| {
            let mut near = self.world.nearby();
            if self.origin.is_finite() {
                near.focus(self.origin - Vec3::new(ACROSS, ACROSS, BELOW), self.origin + Vec3::new(ACROSS, ACROSS, ABOVE));
            }
            near
        })
    }
}

impl Trace for NearWorld<'_> {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        self.near().trace(start, end, mins, maxs, mask)
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }

    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        self.world.point_contents_in(point, mask)
    }

    fn line_is_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.world.line_is_clear(a, b, mask)
    }

    fn line_reaches(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.world.line_reaches(a, b, mask)
    }

    fn mover_offset_of(&self, entity: EntityId) -> Option<Vec3> {
        Trace::mover_offset_of(self.world, entity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::{LoadOptions, load_str};

    /// A floor with a ledge, a pillar and a pit, for traces around the origin.
    fn map() -> quarry_map::LoadedMap {
        let block = |lo: Vec3, hi: Vec3| quarry_map::source::box_brush(lo, hi, "quarry/wall");
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}{}}}\n",
            block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(40.0, 512.0, 0.0)),
            block(Vec3::new(120.0, -512.0, -200.0), Vec3::new(512.0, 512.0, -184.0)),
            block(Vec3::new(-60.0, 30.0, 0.0), Vec3::new(-30.0, 60.0, 128.0)),
        );
        load_str(&text, "near.map", &LoadOptions::default()).expect("test map loads")
    }

    #[test]
    fn traces_near_and_far_match_the_world() {
        let map = map();
        let world = map.world();
        let origin = Vec3::new(0.0, 0.0, 25.0);
        let near = NearWorld::around(world, origin);
        let (mins, maxs) = (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));
        for (dx, dy, dz) in [(72.0, 0.0, 0.0), (0.0, 72.0, 0.0), (-50.0, 50.0, 0.0), (30.0, 0.0, -100.0), (80.0, 0.0, -300.0), (400.0, 10.0, 0.0), (0.0, 0.0, 0.0)] {
            let (a, b) = (origin + Vec3::Z * 2.0, origin + Vec3::new(dx, dy, dz));
            for mask in [Contents::MASK_PLAYER_SOLID, Contents::MASK_PLAYER_SOLID | Contents::LAVA | Contents::SLIME] {
                assert_eq!(near.trace(a, b, mins, maxs, mask), world.trace(a, b, mins, maxs, mask), "{a} -> {b}");
            }
        }
    }
}
