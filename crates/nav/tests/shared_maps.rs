//! Every shared map (real Quake 1, Valve 220 and Quake 3 maps under
//! `../shared/maps`) gets a navmesh, and every spawn point routes to every
//! other spawn point and every item, except the targets listed in
//! [`EXCEPTIONS`], each with the reason no spawn point reaches it. The
//! list is exact: a new unreachable pair fails the test, and so does a
//! listed one that starts to route (update the list).
//!
//! Finds the maps through `QUARRY_SHARED_MAPS` (default
//! `<workspace>/../shared/maps`); when absent it prints a skip line and
//! passes, unless `QUARRY_REQUIRE_SHARED_MAPS=1`.

mod common;

use std::collections::BTreeSet;

use common::{build, check_heuristics_and_print, maps_below, shared_maps_dir, unreachable_pairs};
use quarry_nav::{LinkKind, RouteOptions, SearchScratch, match_start_world};

/// Targets (spawn points or items, by entity index) that no spawn point
/// reaches, per map, and why.
const EXCEPTIONS: &[(&str, &[u32], &str)] = &[
    (
        "dm6.map",
        &[66],
        "spawn point on a tower ledge no walk, drop, jump or teleporter reaches; its teleporters only lead out",
    ),
];

#[test]
fn every_shared_map_routes_spawns_and_items_except_the_listed_targets() {
    let Some(dir) = shared_maps_dir("shared_maps") else {
        return;
    };
    let maps = maps_below(&dir);
    assert!(!maps.is_empty(), "no .map files under {}", dir.display());
    let mut failures = Vec::new();
    for path in &maps {
        let b = build(path);
        let spawns: Vec<u32> = b
            .map
            .spawn_points()
            .filter(|(_, s)| s.fits)
            .map(|(id, _)| id.0)
            .collect();
        let listed: Vec<&(&str, &[u32], &str)> =
            EXCEPTIONS.iter().filter(|(m, _, _)| *m == b.name).collect();
        let expected: BTreeSet<(u32, u32)> = listed
            .iter()
            .flat_map(|(_, targets, _)| targets.iter())
            .flat_map(|&t| {
                spawns
                    .iter()
                    .filter(move |&&s| s != t)
                    .map(move |&s| (s, t))
            })
            .collect();
        let actual = unreachable_pairs(&b.reach);
        for (_, targets, why) in &listed {
            println!("{}: known unreachable {targets:?}: {why}", b.name);
        }
        for u in &b.reach.unreachable {
            if !expected.contains(&(u.from.0, u.to.0)) {
                failures.push(format!(
                    "{}: spawn {} -> {} {} unexpectedly unreachable: {}",
                    b.name, u.from.0, u.to_class, u.to.0, u.reason
                ));
            }
        }
        for (from, to) in expected.difference(&actual) {
            failures.push(format!(
                "{}: spawn {from} -> {to} now routes; remove it from EXCEPTIONS",
                b.name
            ));
        }
        assert!(!b.mesh.capped(), "{}: node cap reached", b.name);
        check_heuristics_and_print(&b);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn dm3s_walkway_spawn_is_reached_by_riding_its_lift() {
    let Some(dir) = shared_maps_dir("dm3 lift") else {
        return;
    };
    let path = dir.join("q1-standard/dm3.map");
    if !path.is_file() {
        println!("dm3 lift: {} missing, skipped", path.display());
        return;
    }
    let b = build(&path);
    let lifts = b.mesh.off_mesh_links().iter().filter(|l| l.kind == LinkKind::Lift).count();
    assert_eq!(lifts, 3, "each of dm3's three func_plats is a lift: {:?}", b.mesh.warnings());
    let spawn = |id: u32| b.map.spawn_points().find(|(e, _)| e.0 == id).map(|(_, s)| s.spawn_origin).expect("spawn");
    let walkway = spawn(179);
    let world = match_start_world(&b.map);
    let from = b.map.spawn_points().filter(|(e, s)| s.fits && e.0 != 179).map(|(_, s)| s.spawn_origin).collect::<Vec<_>>();
    let mut scratch = SearchScratch::new();
    for start in from {
        let r = b.mesh.route(&world, &mut scratch, start, walkway, &RouteOptions::default()).unwrap_or_else(|e| panic!("{start} -> walkway: {e}"));
        assert!(r.uses(LinkKind::Lift), "only a lift climbs to the walkway: {r}");
    }
}
