//! Why a spawn point or an item cannot be reached, in words a mapper
//! understands: `nav-info` lists each unreachable goal once, with how
//! many spawn points fail to reach it and the reason.
//!
//! The reasons, tried in order for the first spawn point that fails:
//!
//! - no floor the player box fits on near it;
//! - behind doors that do not open when touched and that bots cannot open
//!   from there (a key door with no key to fetch, a door whose trigger
//!   stands behind too many other locked doors, or one only a counter or
//!   nothing fires; gates a trigger, a button, a shot or a key opens are
//!   built open: bots open them, fetching the key first): with every such
//!   door open the goal routes, and the doors the route passes are named;
//! - on an island: nothing the mesh knows (walk, drop, jump, jump pad,
//!   teleporter) leads there from the spawn point's part of the map;
//! - one way only: ways lead out of it but none lead in.

use std::collections::BTreeMap;

use glam::Vec3;
use quarry_map::entities::items::KeyKind;
use quarry_map::entities::movers::{Mover, MoverKind};
use quarry_map::{CollisionWorld, EntityId, EntityKind, LoadedMap};
use serde::Serialize;

use crate::generate::input::{is_touch_door, movers_open};
use crate::error::RouteError;
use crate::mesh::NavMesh;
use crate::report::ReachabilityReport;
use crate::route::RouteOptions;
use crate::route::astar::SearchScratch;
use crate::route::snap::Toward;

/// Spacing of the points tested against door bounds along a route, units.
const SAMPLE_STEP: f32 = 16.0;

/// One goal some spawn points cannot reach, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnreachableGoal {
    /// The spawn point or item.
    pub to: EntityId,
    /// Its class name.
    pub to_class: String,
    /// Where it is.
    pub position: Vec3,
    /// How many spawn points cannot reach it.
    pub from_spawns: usize,
    /// Why, for a mapper.
    pub why: String,
}

/// Explains every goal of `report` that some spawn point cannot reach, on
/// `mesh` built from `world` (the match-start world of `map`).
pub fn explain_unreachable(world: &CollisionWorld, map: &LoadedMap, mesh: &NavMesh, report: &ReachabilityReport) -> Vec<UnreachableGoal> {
    // Goal -> (class, position, failing spawn positions, first reason).
    let mut goals: BTreeMap<EntityId, (String, Vec3, Vec<Vec3>, RouteError)> = BTreeMap::new();
    for u in &report.unreachable {
        let entry = goals.entry(u.to).or_insert_with(|| (u.to_class.clone(), u.positions.1, Vec::new(), u.reason));
        entry.2.push(u.positions.0);
    }
    if goals.is_empty() {
        return Vec::new();
    }
    // Every door, secret door and button open, whatever opens it.
    let open = movers_open(world, map, |m| matches!(m.kind, MoverKind::Door | MoverKind::SecretDoor | MoverKind::Button));
    let open_mesh = NavMesh::build_for_map(map, &open, &[], mesh.agent(), mesh.options()).ok();
    let mut scratch = SearchScratch::new();
    goals
        .into_iter()
        .map(|(to, (to_class, position, from, reason))| {
            let first = from.first().copied().unwrap_or(position);
            let why = match reason {
                RouteError::GoalOffMesh => format!("no floor the player box fits on within {:.0} units of it", RouteOptions::default().snap_radius),
                RouteError::StartOffMesh => "the spawn point has no floor the player box fits on".to_owned(),
                _ => {
                    let doors = open_mesh.as_ref().and_then(|m| doors_on_the_way(map, m, &open, &mut scratch, first, position));
                    match doors {
                        Some(doors) if !doors.is_empty() => format!(
                            "behind {}: bots cannot open it from here (no key lies anywhere a bot can fetch it; what opens it stands behind more locked doors than a bot plans through; a counter, or nothing, fires it)",
                            doors.join(", ")
                        ),
                        Some(_) => "behind a mover that does not open when touched".to_owned(),
                        None => island_or_one_way(mesh, world, first, position),
                    }
                }
            };
            UnreachableGoal { to, to_class, position, from_spawns: from.len(), why }
        })
        .collect()
}

/// With every door open, the doors that do not open on touch whose closed
/// bounds the route from `from` to `to` passes through, described; `None`
/// when even then there is no route.
fn doors_on_the_way(map: &LoadedMap, open_mesh: &NavMesh, open: &CollisionWorld, scratch: &mut SearchScratch, from: Vec3, to: Vec3) -> Option<Vec<String>> {
    let route = open_mesh.route(open, scratch, from, to, &RouteOptions::default()).ok()?;
    let agent = open_mesh.agent();
    let points = route.points_along(SAMPLE_STEP);
    let mut doors = Vec::new();
    for e in map.entities() {
        let (EntityKind::Mover(m), Some((lo, hi))) = (&e.kind, e.bounds) else { continue };
        if !matches!(m.kind, MoverKind::Door | MoverKind::SecretDoor) || is_touch_door(m) || m.start_open {
            continue;
        }
        let crossed = points.iter().any(|p| {
            let (a, b) = (*p + agent.mins(), *p + agent.maxs());
            a.cmple(hi).all() && lo.cmple(b).all()
        });
        if crossed {
            doors.push(format!("{} {} (line {}), which {}", e.classname, e.id.0, e.line, opened_by(m)));
        }
    }
    Some(doors)
}

/// What opens a door that touching does not.
fn opened_by(m: &Mover) -> String {
    let mut ways = Vec::new();
    if let Some(key) = m.key {
        let name = match key {
            KeyKind::Silver => "silver",
            KeyKind::Gold => "gold",
        };
        ways.push(format!("needs the {name} key"));
    }
    if m.health > 0.0 {
        ways.push("opens when shot".to_owned());
    }
    if m.triggered {
        ways.push("opens from a trigger or a button".to_owned());
    }
    if m.kind == MoverKind::SecretDoor && ways.is_empty() {
        ways.push("opens when shot or triggered".to_owned());
    }
    if ways.is_empty() {
        ways.push("does not open when touched".to_owned());
    }
    ways.join(" and ")
}

/// Whether `to` lies in another part of the mesh than `from` (an island)
/// or in the same part with no way in.
fn island_or_one_way(mesh: &NavMesh, world: &CollisionWorld, from: Vec3, to: Vec3) -> String {
    let prober = mesh.prober(world);
    let radius = RouteOptions::default().snap_radius;
    let area = |p: Vec3, toward| {
        mesh.snap_end(&prober, p, toward, radius)
            .and_then(|(n, _)| mesh.graph.nodes.get(n as usize).map(|n| n.area))
    };
    if area(from, Toward::Node) != area(to, Toward::Point) {
        "on an island: no walk, drop, jump, jump pad or teleporter leads there from the spawn point's part of the map, even with every door open (a lift, a rocket jump or a mover bots cannot ride may)".to_owned()
    } else {
        "one way only: ways lead out of it but none lead in, even with every door open (a lift or a mover bots cannot ride may be the way)".to_owned()
    }
}
