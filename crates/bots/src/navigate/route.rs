//! Routes and where they come from: a [`Route`] is a list of [`Corner`]s,
//! each saying how it is reached; a [`Navigator`] answers route queries
//! (the runtime navmesh in `navmesh.rs`, or [`StraightNavigator`] in tests).
//! A navigator holds nothing about who asks: every query whose answer
//! depends on the player takes that player's [`Traveller`].

use glam::Vec3;
use quarry_map::EntityId;
use quarry_map::entities::items::{KeyKind, KeySet};

use crate::rng::BotRng;

/// How a corner is reached from the one before: the navmesh's own link
/// kind (one type for the mesh and the bots; a non-walk link is a committed
/// action here, see [`LinkKind::is_special`]).
pub use quarry_nav::LinkKind;

/// One corner of a route: a player origin to reach, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// Where the player origin should get to.
    pub pos: Vec3,
    /// How it is reached from the previous corner.
    pub link: LinkKind,
    /// The jump pad or teleporter entity, for those links.
    pub entity: Option<EntityId>,
}

/// A route from a start to a goal.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Route {
    /// Corners in order; the last is the goal.
    pub corners: Vec<Corner>,
    /// Travel cost from the start (units, with penalties for actions).
    pub cost: f32,
}

impl Route {
    /// The goal position.
    pub fn goal(&self) -> Option<Vec3> {
        self.corners.last().map(|c| c.pos)
    }

    /// Length still to travel from `pos` when heading to corner `index`.
    pub fn remaining(&self, pos: Vec3, index: usize) -> f32 {
        let mut len = 0.0;
        let mut at = pos;
        for c in self.corners.iter().skip(index) {
            len += at.distance(c.pos);
            at = c.pos;
        }
        len
    }
}

/// Who a route is for: what the player asking can pass and how it weighs
/// open ground. Every query that depends on the player takes one; the
/// default is a player with no keys on the shortest routes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Traveller {
    /// The keys the player carries: key doors they open never bar its
    /// routes (its touch opens them).
    pub keys: KeySet,
    /// How much the player shuns open ground: routes weigh each step by
    /// `1 + caution × exposure` of the node it enters (the navmesh's
    /// exposure figure). 0 gives the shortest routes; navigators without
    /// the figure ignore it.
    pub caution: f32,
}

/// How to open a closed gate that bars a way: go to `target`, and from
/// there (or on the way, once in sight) shoot `shoot_at` if set (the
/// navmesh's plan, as [`LinkKind`] is the navmesh's).
pub use quarry_nav::gates::OpeningPlan as GatePlan;

/// Where routes come from. Implemented over the runtime navmesh; the
/// layers only see this trait.
pub trait Navigator {
    /// Whether routes can be asked for (the mesh is built).
    fn ready(&self) -> bool;
    /// A route from `from` to `to` for `traveller`, or `None` if there is none.
    fn route(&mut self, from: Vec3, to: Vec3, traveller: Traveller) -> Option<Route>;
    /// The nearest navigable standing spot within `radius` of `point`.
    fn nearest(&mut self, point: Vec3, radius: f32) -> Option<Vec3>;
    /// A route for `traveller` from `from` to a random point reachable from it.
    fn random_route(&mut self, from: Vec3, traveller: Traveller, rng: &mut BotRng) -> Option<Route>;
    /// Where a player sent to `point` ends up standing: a point on a jump
    /// pad or in a teleporter is where it sends you (nobody stays there: a
    /// bot sent to stand on a pad is launched, drops back on it, and goes
    /// round until its route times out). By default `point` itself.
    fn settle(&mut self, point: Vec3) -> Vec3 {
        point
    }
    /// Whether nothing solid lies between `from` and `to` (a shot's
    /// trace). By default `true`: this navigator knows no walls.
    fn clear_line(&mut self, from: Vec3, to: Vec3) -> bool {
        let _ = (from, to);
        true
    }
    /// The nearest spot within `max_distance` (along the routes) of `from`
    /// that an enemy with its eye at `threat_eye` cannot see, and that is
    /// no nearer it: where to break contact. `None` when there is none
    /// near, or this navigator cannot tell (the default).
    fn cover(&mut self, from: Vec3, threat_eye: Vec3, max_distance: f32) -> Option<Vec3> {
        let _ = (from, threat_eye, max_distance);
        None
    }
    /// A cheap test that can only prove `to` unreachable from `from`
    /// (different islands); `true` means "maybe".
    fn maybe_reachable(&mut self, from: Vec3, to: Vec3) -> bool {
        let _ = (from, to);
        true
    }
    /// When no route leads from `from` to `to` only because a gate is
    /// closed: how to open the first such gate (for a key door, which of
    /// the `keys` lying about to fetch; the doors `traveller`'s own keys
    /// open bar nothing). `None` when no closed gate is to blame or none of
    /// its openings can be reached.
    fn gate_opening(&mut self, from: Vec3, to: Vec3, traveller: Traveller, keys: &[(KeyKind, Vec3)]) -> Option<GatePlan> {
        let _ = (from, to, traveller, keys);
        None
    }
    /// One line for `botlist`: state, node and link counts, build time.
    fn describe(&self) -> String;
    /// Route queries answered so far (for the per-tick routing budget).
    fn queries(&self) -> u64 {
        0
    }
}

/// A stand-in navigator that walks straight lines to a fixed set of
/// points. For tests and open arenas; it knows no walls.
#[derive(Debug, Clone, Default)]
pub struct StraightNavigator {
    /// Points `random_route` picks from.
    pub points: Vec<Vec3>,
}

impl Navigator for StraightNavigator {
    fn ready(&self) -> bool {
        true
    }

    fn route(&mut self, from: Vec3, to: Vec3, _traveller: Traveller) -> Option<Route> {
        Some(Route {
            corners: vec![Corner {
                pos: to,
                link: LinkKind::Walk,
                entity: None,
            }],
            cost: from.distance(to),
        })
    }

    fn nearest(&mut self, point: Vec3, _radius: f32) -> Option<Vec3> {
        Some(point)
    }

    fn random_route(&mut self, from: Vec3, traveller: Traveller, rng: &mut BotRng) -> Option<Route> {
        let n = u32::try_from(self.points.len()).ok()?;
        let to = *self.points.get(rng.below(n) as usize)?;
        self.route(from, to, traveller)
    }

    fn describe(&self) -> String {
        format!("straight lines ({} points)", self.points.len())
    }
}
