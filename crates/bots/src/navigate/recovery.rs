//! Off-mesh recovery: steering back toward the navmesh when a bot has had
//! no route for a while (spawned or knocked off the mesh, every route
//! failing).

use glam::Vec3;

use super::follow::{CORNER_RADIUS, FollowEvent, Steer};
use super::route::Navigator;
use crate::rng::BotRng;
use crate::view::{BotClock, PlayerSnap};

/// How often off-mesh recovery looks for the nearest navigable spot, ms.
pub const RECOVERY_SEARCH_MS: f32 = 500.0;
/// How far recovery looks, units.
pub const RECOVERY_RADIUS: f32 = 1536.0;
/// How long a wandering heading is held, ms.
pub const WANDER_HOLD_MS: f32 = 2000.0;

/// Off-mesh recovery: with no route to follow, walk straight to the nearest
/// navigable spot (pulsing jump over whatever is in the way), or failing
/// that wander on a held heading (a new constant turn each tick makes a
/// bot circle in place).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Recovery {
    next_search: u32,
    toward: Option<Vec3>,
    heading: Vec3,
    heading_until: u32,
}

impl Recovery {
    /// Forgets the target spot and heading.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Steering toward the mesh. `trace` checks wander headings for walls.
    pub fn steer(
        &mut self,
        me: &PlayerSnap,
        nav: &mut dyn Navigator,
        trace: &dyn quarry_map::Trace,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Steer {
        if clock.tick >= self.next_search {
            self.next_search = clock.after_ms(RECOVERY_SEARCH_MS);
            self.toward = nav.nearest(me.origin, RECOVERY_RADIUS);
        }
        if let Some(spot) = self.toward {
            let d = Vec3::new(spot.x - me.origin.x, spot.y - me.origin.y, 0.0);
            if d.length() > CORNER_RADIUS {
                return Steer {
                    dir: d.normalize_or_zero(),
                    jump: me.on_ground,
                    committed: false,
                    look: Some(spot + Vec3::Z * 26.0),
                    swim: super::follow::swim_toward(me, spot),
                    face: false,
                    crouch: false,
                    event: FollowEvent::None,
                };
            }
        }
        let blocked = |dir: Vec3| {
            let start = me.origin + Vec3::Z * 2.0;
            let tr = trace.trace(
                start,
                start + dir * 64.0,
                me.mins,
                me.maxs,
                quarry_map::Contents::MASK_PLAYER_SOLID,
            );
            tr.start_solid || tr.fraction < 0.5
        };
        if clock.tick >= self.heading_until
            || self.heading == Vec3::ZERO
            || (me.velocity.length() < 20.0 && blocked(self.heading))
        {
            // A new heading, preferring one not straight into a wall.
            let base = rng.unit() * std::f32::consts::TAU;
            let headings = (0..8).map(|i| {
                let a = base + i as f32 * std::f32::consts::TAU / 8.0;
                Vec3::new(a.cos(), a.sin(), 0.0)
            });
            let mut first = None;
            let mut open = None;
            for h in headings {
                first.get_or_insert(h);
                if !blocked(h) {
                    open = Some(h);
                    break;
                }
            }
            self.heading = open.or(first).unwrap_or(Vec3::X);
            self.heading_until = clock.after_ms(WANDER_HOLD_MS);
        }
        Steer {
            dir: self.heading,
            jump: false,
            committed: false,
            look: Some(me.eye + self.heading * 256.0),
            swim: 0,
            face: false,
            crouch: false,
            event: FollowEvent::None,
        }
    }
}
