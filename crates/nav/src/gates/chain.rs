//! The mechanism chain to a goal: what a player does on the way there, in
//! order. Each closed gate the way passes is opened first (and the way to
//! what opens it may pass other gates, opened before it, up to
//! [`MAX_NESTED_GATES`] deep, as bots plan them); the way itself rides
//! lifts, takes teleporters and jump pads, jumps, drops, crouches, climbs
//! and dives. `nav-info` prints it for every item behind something more
//! than a walk, and tests compare it with a generated map's answer.
//!
//! The way is the one [`crate::gates::plan`] would take: routes with the
//! gates taken as open, the gate being opened (and those further up the
//! plan) kept shut, and of a gate's openings the first whose spot routes.

use std::fmt;

use glam::Vec3;
use quarry_map::entities::items::{Item, ItemKind, KeyKind};
use quarry_map::entities::{Trigger, TriggerKind};
use quarry_map::{CollisionWorld, Contents, EntityId, EntityKind, LoadedMap};
use serde::Serialize;

use super::opening::{MAX_NESTED_GATES, SHOOT_STEP_BACK, beside};
use super::{Gate, Opening, is_closed};
use crate::generate::exposure::EYE_HEIGHT;
use crate::generate::input::item_spot;
use crate::graph::LinkKind;
use crate::mesh::NavMesh;
use crate::route::astar::SearchScratch;
use crate::route::{Route, RouteOptions};

/// Spacing of the points tested against gate bounds between nodes, units.
const SAMPLE_STEP: f32 = 16.0;
/// Rise by walking (steps, a ramp) counted as a climb, units: more than a
/// step or two.
pub const MIN_CLIMB: f32 = 48.0;

/// How a gate is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OpenBy {
    /// Walk into a button.
    TouchButton,
    /// Walk into a trigger volume.
    TouchTrigger,
    /// Shoot a button.
    ShootButton,
    /// Shoot the door itself.
    ShootDoor,
    /// Carry its key to it.
    Key(KeyKind),
}

/// What a button or trigger fires on its way to the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Fired {
    /// A `trigger_relay` (which may wait its `delay`).
    Relay,
    /// A `trigger_counter` that fires after this many uses.
    Counter(u32),
}

/// One step on the way to a goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Step {
    /// Open a gate.
    Open {
        /// The door.
        gate: EntityId,
        /// How.
        by: OpenBy,
        /// The button, trigger or key item used (the door itself when shot).
        with: Option<EntityId>,
        /// What fires in between, in order.
        through: Vec<Fired>,
    },
    /// Travel a link that is not a walk: a drop, jump, jump pad,
    /// teleporter, lift, swim or crouch.
    Move(LinkKind),
    /// Walk up more than [`MIN_CLIMB`] (stairs, a ramp), once between
    /// other steps.
    Climb,
    /// Go under water (or slime or lava) deeper than the eyes.
    Dive,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Open { gate, by, with, through } => {
                let with = with.map_or_else(String::new, |e| format!(" {}", e.0));
                let how = match by {
                    OpenBy::TouchButton => format!("press button{with}"),
                    OpenBy::TouchTrigger => format!("walk into trigger{with}"),
                    OpenBy::ShootButton => format!("shoot button{with}"),
                    OpenBy::ShootDoor => "shoot it".to_owned(),
                    OpenBy::Key(KeyKind::Gold) => format!("carry the gold key{with}"),
                    OpenBy::Key(KeyKind::Silver) => format!("carry the silver key{with}"),
                };
                let through: String = through
                    .iter()
                    .map(|t| match t {
                        Fired::Relay => " via a relay".to_owned(),
                        Fired::Counter(n) => format!(" via a counter of {n}"),
                    })
                    .collect();
                write!(f, "open door {} ({how}{through})", gate.0)
            }
            Step::Move(kind) => write!(f, "{}", kind.name()),
            Step::Climb => write!(f, "climb"),
            Step::Dive => write!(f, "dive"),
        }
    }
}

/// The steps in words, a run of the same move once with its count
/// ("jump x3").
pub fn describe_steps(steps: &[Step]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let run = steps[i..].iter().take_while(|s| **s == steps[i]).count();
        out.push(if run > 1 { format!("{} x{run}", steps[i]) } else { steps[i].to_string() });
        i += run;
    }
    out.join(", ")
}

/// The steps from `from` to `to` with the gates as `world` has them, or
/// `None` when no way (through gates bots open) leads there. For many
/// goals on one map, build a [`ChainPlanner`] once.
pub fn chain(mesh: &NavMesh, world: &CollisionWorld, map: &LoadedMap, from: Vec3, to: Vec3) -> Option<Vec<Step>> {
    ChainPlanner::new(mesh, world, map).chain(from, to)
}

/// What every chain on one map reads, gathered once: the gates and the
/// keys lying where they come to rest.
pub struct ChainPlanner<'a> {
    mesh: &'a NavMesh,
    world: &'a CollisionWorld,
    map: &'a LoadedMap,
    gates: Vec<Gate>,
    keys: Vec<(EntityId, KeyKind, Vec3)>,
}

impl<'a> ChainPlanner<'a> {
    /// The gates and keys of `map`, for chains on `mesh` in `world`.
    pub fn new(mesh: &'a NavMesh, world: &'a CollisionWorld, map: &'a LoadedMap) -> Self {
        let open = crate::generate::input::doors_open_world(world, map);
        let keys = map
            .entities()
            .iter()
            .filter_map(|e| match e.kind {
                EntityKind::Item(Item { kind: ItemKind::Key(k), .. }) => Some((e.id, k, item_spot(&open, e)?)),
                _ => None,
            })
            .collect();
        Self { mesh, world, map, gates: super::gates(map), keys }
    }

    /// [`chain`] from `from` to `to`.
    pub fn chain(&self, from: Vec3, to: Vec3) -> Option<Vec<Step>> {
        let way = Chain { mesh: self.mesh, world: self.world, map: self.map, gates: &self.gates, from, keys: &self.keys };
        way.steps(&mut SearchScratch::new(), &mut Vec::new(), to, &[], MAX_NESTED_GATES + 1)
    }
}

/// One chain question.
struct Chain<'a> {
    mesh: &'a NavMesh,
    world: &'a CollisionWorld,
    map: &'a LoadedMap,
    gates: &'a [Gate],
    from: Vec3,
    keys: &'a [(EntityId, KeyKind, Vec3)],
}

impl Chain<'_> {
    /// The steps to `to` with the gates in `shut` kept shut, looking
    /// through at most `depth` gates in a row; the gates in `opened` are
    /// open already (on the way to an earlier goal of the chain), and the
    /// ones this way opens are added.
    fn steps(&self, scratch: &mut SearchScratch, opened: &mut Vec<EntityId>, to: Vec3, shut: &[EntityId], depth: u32) -> Option<Vec<Step>> {
        if depth == 0 {
            return None;
        }
        let route = self.route(scratch, to, shut)?;
        let closed: Vec<&Gate> = self
            .gates
            .iter()
            .filter(|g| !g.openings.is_empty() && !shut.contains(&g.entity) && is_closed(self.world, g))
            .collect();
        let (mins, maxs) = (self.mesh.agent().mins(), self.mesh.agent().maxs());
        let mut steps = Vec::new();
        let mut rise = 0.0_f32;
        let mut climbed = false;
        let mut under = false;
        let graph = &self.mesh.graph;
        for pair in route.nodes.windows(2) {
            let (Some(a), Some(b)) = (graph.nodes.get(pair[0].index()), graph.nodes.get(pair[1].index())) else { continue };
            let (a, b) = (a.origin, b.origin);
            // Gates this stretch passes through, in order.
            let samples = (a.distance(b) / SAMPLE_STEP).ceil().max(1.0) as usize;
            for i in 0..=samples {
                let p = a.lerp(b, i as f32 / samples as f32);
                let (lo, hi) = (p + mins, p + maxs);
                for g in &closed {
                    if opened.contains(&g.entity) || !(lo.cmple(g.closed.1).all() && g.closed.0.cmple(hi).all()) {
                        continue;
                    }
                    opened.push(g.entity);
                    let deeper: Vec<EntityId> = shut.iter().copied().chain([g.entity]).collect();
                    steps.extend(self.open(scratch, opened, g, &deeper, depth)?);
                    (rise, climbed) = (0.0, false);
                }
            }
            let kind = graph.links_from(pair[0].0).1.iter().filter(|l| l.to == pair[1]).min_by(|x, y| x.cost.total_cmp(&y.cost)).map(|l| l.kind);
            match kind {
                Some(LinkKind::Walk) | None => {
                    rise = (rise + (b.z - a.z)).max(0.0);
                    if rise >= MIN_CLIMB && !climbed {
                        steps.push(Step::Climb);
                        climbed = true;
                    }
                }
                Some(k) => {
                    steps.push(Step::Move(k));
                    (rise, climbed) = (0.0, false);
                }
            }
            let wet = self.world.point_contents(b + Vec3::Z * EYE_HEIGHT).intersects(Contents::MASK_LIQUID);
            if wet && !under {
                steps.push(Step::Dive);
            }
            under = wet;
        }
        Some(steps)
    }

    /// The steps to what opens a gate at `spot`, one gate deeper; a way
    /// that fails leaves `opened` as it was.
    fn attempt(&self, scratch: &mut SearchScratch, opened: &mut Vec<EntityId>, spot: Vec3, shut: &[EntityId], depth: u32) -> Option<Vec<Step>> {
        let mark = opened.len();
        let steps = self.steps(scratch, opened, spot, shut, depth - 1);
        if steps.is_none() {
            opened.truncate(mark);
        }
        steps
    }

    /// A route to `to` with every gate taken as open but those in `shut`.
    fn route(&self, scratch: &mut SearchScratch, to: Vec3, shut: &[EntityId]) -> Option<Route> {
        let open_ways = RouteOptions { validate: false, ..RouteOptions::default() };
        if shut.is_empty() {
            return self.mesh.route(self.world, scratch, self.from, to, &open_ways).ok();
        }
        let others = self.gates.iter().filter(|g| !g.openings.is_empty() && !shut.contains(&g.entity)).map(|g| g.entity);
        let doors: Vec<EntityId> = self.mesh.touch_doors().iter().copied().chain(others).collect();
        self.mesh.route_seeing_through(self.world, scratch, self.from, to, &RouteOptions::default(), &doors).ok()
    }

    /// The steps that open gate `g` (the way to what opens it, then the
    /// opening), by its first opening whose spot a way leads to.
    fn open(&self, scratch: &mut SearchScratch, opened: &mut Vec<EntityId>, g: &Gate, shut: &[EntityId], depth: u32) -> Option<Vec<Step>> {
        let half = self.mesh.agent().half_width;
        let feet = -self.mesh.agent().mins().z;
        for opening in &g.openings {
            let (spots, by, with): (Vec<Vec3>, OpenBy, Option<EntityId>) = match *opening {
                Opening::Shoot { entity, .. } if entity == g.entity => {
                    return Some(vec![Step::Open { gate: g.entity, by: OpenBy::ShootDoor, with: None, through: Vec::new() }]);
                }
                Opening::Touch { entity, bounds: (lo, hi) } => {
                    let centre = Vec3::new((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5, lo.z + feet);
                    let mut spots = vec![centre];
                    spots.extend(beside(lo, hi, centre.z, half + 1.0));
                    let button = matches!(self.map.entity(entity).map(|e| &e.kind), Some(EntityKind::Mover(_)));
                    (spots, if button { OpenBy::TouchButton } else { OpenBy::TouchTrigger }, Some(entity))
                }
                Opening::Shoot { entity, bounds: (lo, hi) } => {
                    let aim = (lo + hi) * 0.5;
                    (beside(lo, hi, aim.z, half + SHOOT_STEP_BACK).to_vec(), OpenBy::ShootButton, Some(entity))
                }
                Opening::Key(k) => {
                    let mut lying: Vec<(EntityId, Vec3)> = self.keys.iter().filter(|(_, kind, _)| *kind == k).map(|(id, _, p)| (*id, *p)).collect();
                    lying.sort_by(|a, b| a.1.distance_squared(self.from).total_cmp(&b.1.distance_squared(self.from)));
                    let found = lying.iter().find_map(|(id, p)| self.attempt(scratch, opened, *p, shut, depth).map(|s| (*id, s)));
                    let Some((id, mut steps)) = found else { continue };
                    steps.push(Step::Open { gate: g.entity, by: OpenBy::Key(k), with: Some(id), through: Vec::new() });
                    return Some(steps);
                }
            };
            let through = with.map(|w| fired_through(self.map, w, g.entity)).unwrap_or_default();
            for spot in spots {
                if let Some(mut steps) = self.attempt(scratch, opened, spot, shut, depth) {
                    steps.push(Step::Open { gate: g.entity, by, with, through });
                    return Some(steps);
                }
            }
        }
        None
    }
}

/// The relays and counters between `from` firing and `door` moving, in
/// order (the shortest such chain; empty when `from` targets the door).
fn fired_through(map: &LoadedMap, from: EntityId, door: EntityId) -> Vec<Fired> {
    super::path_to(map, from, door, true)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|id| match map.entity(id).map(|e| &e.kind) {
            Some(EntityKind::Trigger(Trigger { kind: TriggerKind::Relay, .. })) => Some(Fired::Relay),
            Some(EntityKind::Trigger(Trigger { kind: TriggerKind::Counter, count, .. })) => Some(Fired::Counter(*count)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_one_move_is_told_once_with_its_count() {
        let open = Step::Open { gate: EntityId(4), by: OpenBy::TouchButton, with: Some(EntityId(6)), through: vec![Fired::Relay, Fired::Counter(2)] };
        let steps = [Step::Move(LinkKind::Jump), Step::Move(LinkKind::Jump), Step::Move(LinkKind::Jump), Step::Climb, open, Step::Dive];
        assert_eq!(
            describe_steps(&steps),
            "jump x3, climb, open door 4 (press button 6 via a relay via a counter of 2), dive"
        );
        assert_eq!(describe_steps(&[]), "");
    }
}
