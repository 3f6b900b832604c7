//! The navmesh against generated mechanism puzzles with known answers
//! (`quarry-mapgen`): two maps of every part kind in every dialect. Every
//! goal the answer says is reachable routes from every spawn point, with
//! the answer's mechanisms in order on the way from the first
//! (`quarry_nav::gates::chain`); every one it says is not is unreachable
//! and explained.
//!
//! `scripts/mapgen_corpus.sh` checks the full corpus the same way.

#[path = "support/mechanisms.rs"]
mod mechanisms;

use quarry_map::{LoadOptions, LoadedMap};
use quarry_mapgen::{Expect, GeneratedMap, Mechanism, corpus};
use quarry_nav::{Agent, BuildOptions, NavMesh, explain_unreachable, match_start_world, reachability_report_in};

/// What the navmesh made of one goal.
#[derive(Debug)]
enum Found {
    /// Routed from every spawn point, with the mechanisms on the way from
    /// the first (in the answer's words).
    Routed(Vec<Mechanism>),
    Unreachable(String),
    Missing,
}

/// Each goal of `m` with what the navmesh found.
fn check(m: &GeneratedMap) -> Vec<(String, Expect, Vec<Mechanism>, Found)> {
    let map: LoadedMap = quarry_map::load_str(&m.text, &m.name, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let world = match_start_world(&map);
    let mesh = NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &BuildOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let report = reachability_report_in(&world, &map, &mesh);
    let explained = explain_unreachable(&world, &map, &mesh, &report);
    m.answer
        .goals
        .iter()
        .map(|g| {
            let at = glam::Vec3::new(g.origin[0] as f32, g.origin[1] as f32, g.origin[2] as f32);
            let entity = map.entities().iter().find(|e| e.classname == g.class && e.origin.is_some_and(|o| o.distance(at) < 1.0));
            let found = match entity {
                None => Found::Missing,
                Some(e) => match explained.iter().find(|u| u.to == e.id) {
                    Some(u) => Found::Unreachable(u.why.clone()),
                    None => Found::Routed(mechanisms::on_the_way(&mesh, &world, &map, at)),
                },
            };
            (format!("{} {} at {:?}", m.name, g.class, g.origin), g.expect, g.via.clone(), found)
        })
        .collect()
}

#[test]
fn every_part_kind_in_every_dialect_matches_its_answer() {
    let maps = corpus(1, 2);
    let mut wrong = Vec::new();
    for m in &maps {
        for (goal, expect, answer_via, found) in check(m) {
            let ok = match (expect, &found) {
                (Expect::Reachable, Found::Routed(via)) => *via == answer_via,
                (Expect::Unreachable | Expect::Trick, Found::Unreachable(why)) => !why.is_empty(),
                _ => false,
            };
            println!("{goal}: expected {expect:?} {answer_via:?}, found {found:?}");
            if !ok {
                wrong.push(format!("{goal}: expected {expect:?} {answer_via:?}, found {found:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{} of the goals do not match their answers:\n{}", wrong.len(), wrong.join("\n"));
}
