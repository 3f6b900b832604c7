//! The map layer of the web view (`/map`): the navmesh's walkable floor and
//! its links by kind, sent once per navmesh (the page fetches it again when
//! a frame names another), off the hot path.

use std::collections::BTreeMap;
use std::fmt::Write;

use quarry_nav::{LinkKind, NavMesh};

/// The map layer as JSON: `id` (the navmesh generation), `cell` (its cell
/// size), `floor` (every node's position, whole units, flat `x, y, z...`)
/// `links` (by kind name, flat pairs of node indices; a walk, crouch
/// or swim link both ways is sent once) and `movers` (each door or
/// platform's map entity index and its bounds where the map put it:
/// `[entity, min x, y, z, max x, y, z]`; frames give their offsets) and
/// `spawns` (`[x, y, z, yaw, team]`, team 0 for any, 1 red, 2 blue).
pub(super) fn map_json(id: u64, mesh: &NavMesh, map: &quarry_map::LoadedMap) -> String {
    let mut out = String::with_capacity(mesh.node_count() * 18 + mesh.link_count() * 8 + 64);
    let _ = write!(out, "{{\"id\":{id},\"cell\":{},\"floor\":[", mesh.cell_size());
    for (i, n) in mesh.nodes().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{},{},{}", n.origin.x.round() as i32, n.origin.y.round() as i32, n.origin.z.round() as i32);
    }
    out.push_str("],\"links\":{");
    let mut by_kind: BTreeMap<&'static str, Vec<(u32, u32)>> = BTreeMap::new();
    for from in 0..mesh.node_count() {
        let from = u32::try_from(from).unwrap_or(u32::MAX);
        for link in mesh.links_from(quarry_nav::NodeId(from)) {
            let to = link.to.0;
            let both_ways = matches!(link.kind, LinkKind::Walk | LinkKind::Crouch | LinkKind::Swim);
            if both_ways && to < from && mesh.links_from(link.to).iter().any(|back| back.to.0 == from && back.kind == link.kind) {
                continue;
            }
            by_kind.entry(link.kind.name()).or_default().push((from, to));
        }
    }
    for (k, (kind, pairs)) in by_kind.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{kind}\":[");
        for (i, (a, b)) in pairs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{a},{b}");
        }
        out.push(']');
    }
    out.push_str("},\"movers\":[");
    let world = map.world();
    let mut first = true;
    for (mover, entity) in world.movers() {
        let Some((lo, hi)) = world.mover_bounds(mover) else { continue };
        if !first {
            out.push(',');
        }
        first = false;
        let r = |v: f32| v.round() as i32;
        let _ = write!(out, "[{},{},{},{},{},{},{}]", entity.0, r(lo.x), r(lo.y), r(lo.z), r(hi.x), r(hi.y), r(hi.z));
    }
    out.push_str("],\"spawns\":[");
    let mut first = true;
    for e in map.entities() {
        let quarry_map::EntityKind::PlayerSpawn(spawn) = &e.kind else { continue };
        let Some(at) = e.origin.filter(|p| p.is_finite()) else { continue };
        let team = match spawn.kind {
            quarry_map::SpawnKind::Team { team: quarry_map::Team::Red, .. } => 1,
            quarry_map::SpawnKind::Team { team: quarry_map::Team::Blue, .. } => 2,
            _ => 0,
        };
        if !first {
            out.push(',');
        }
        first = false;
        let yaw = if spawn.yaw.is_finite() { spawn.yaw.round() as i32 } else { 0 };
        let _ = write!(out, "[{},{},{},{yaw},{team}]", at.x.round() as i32, at.y.round() as i32, at.z.round() as i32);
    }
    out.push_str("]}");
    out
}

/// The map layer before a navmesh is ready.
pub(super) const EMPTY: &str = "{\"id\":0,\"cell\":0,\"floor\":[],\"links\":{},\"movers\":[],\"spawns\":[]}";
