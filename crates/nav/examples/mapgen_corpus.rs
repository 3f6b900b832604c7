//! Generates a corpus of mechanism-puzzle maps (`quarry-mapgen`) and
//! checks the navmesh against each map's answer, a row per map:
//!
//! ```text
//! cargo run --release -p quarry-nav --example mapgen_corpus -- [SEED] [PER_KIND] [--write DIR]
//! ```
//!
//! `--write DIR` also writes each map and its answer
//! (`NAME.map`, `NAME.answer.json`) there, for `scripts/corpus_figures.py`.
//!
//! Columns: goals the answer says are reachable, of those the navmesh
//! routes from every spawn point, of those whose mechanism chain from the
//! first spawn point is the answer's; goals it says are not, of those the
//! navmesh finds unreachable and explains; the build time. Exit status 1
//! when any goal disagrees with its answer (each is listed).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[path = "../tests/support/mechanisms.rs"]
mod mechanisms;

use quarry_map::LoadOptions;
use quarry_mapgen::{Expect, corpus};
use quarry_nav::{Agent, BuildOptions, NavMesh, explain_unreachable, match_start_world, reachability_report_in};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut numbers = Vec::new();
    let mut write: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        if a == "--write" {
            write = args.next().map(PathBuf::from);
        } else if let Ok(n) = a.parse::<u64>() {
            numbers.push(n);
        } else {
            eprintln!("usage: mapgen_corpus [SEED] [PER_KIND] [--write DIR]");
            return ExitCode::from(2);
        }
    }
    let (seed, per_kind) = (numbers.first().copied().unwrap_or(1), numbers.get(1).copied().unwrap_or(2));
    let maps = corpus(seed, per_kind);
    println!("{:<32} {:>9} {:>7} {:>7} {:>11} {:>9} {:>9}", "map", "reachable", "routed", "chain", "unreachable", "explained", "build ms");
    let mut wrong = Vec::new();
    for m in &maps {
        if let Some(dir) = &write {
            let answer = serde_json::to_string_pretty(&m.answer).unwrap_or_default();
            let written = std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(dir.join(format!("{}.map", m.name)), &m.text))
                .and_then(|()| std::fs::write(dir.join(format!("{}.answer.json", m.name)), answer));
            if let Err(e) = written {
                eprintln!("mapgen_corpus: {}: {e}", dir.display());
                return ExitCode::from(1);
            }
        }
        let map = match quarry_map::load_str(&m.text, &m.name, &LoadOptions::default()) {
            Ok(map) => map,
            Err(e) => {
                wrong.push(format!("{}: does not load: {e}", m.name));
                continue;
            }
        };
        let world = match_start_world(&map);
        let start = Instant::now();
        let mesh = match NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &BuildOptions::default()) {
            Ok(mesh) => mesh,
            Err(e) => {
                wrong.push(format!("{}: no navmesh: {e}", m.name));
                continue;
            }
        };
        let build_ms = start.elapsed().as_secs_f64() * 1000.0;
        let report = reachability_report_in(&world, &map, &mesh);
        let explained = explain_unreachable(&world, &map, &mesh, &report);
        let (mut reachable, mut routed, mut chained, mut unreachable, mut said) = (0, 0, 0, 0, 0);
        for g in &m.answer.goals {
            let at = glam::Vec3::new(g.origin[0] as f32, g.origin[1] as f32, g.origin[2] as f32);
            let entity = map.entities().iter().find(|e| e.classname == g.class && e.origin.is_some_and(|o| o.distance(at) < 1.0));
            let why = entity.and_then(|e| explained.iter().find(|u| u.to == e.id)).map(|u| u.why.as_str());
            match (g.expect, entity, why) {
                (_, None, _) => wrong.push(format!("{}: {} at {:?} is not in the loaded map", m.name, g.class, g.origin)),
                (Expect::Reachable, Some(_), None) => {
                    reachable += 1;
                    routed += 1;
                    let via = mechanisms::on_the_way(&mesh, &world, &map, at);
                    if via == g.via {
                        chained += 1;
                    } else {
                        wrong.push(format!("{}: {} at {:?} is reached by {via:?}, the answer says {:?}", m.name, g.class, g.origin, g.via));
                    }
                }
                (Expect::Reachable, Some(_), Some(why)) => {
                    reachable += 1;
                    wrong.push(format!("{}: {} at {:?} should be reachable ({:?}): {why}", m.name, g.class, g.origin, g.via));
                }
                (Expect::Unreachable | Expect::Trick, Some(_), Some(_)) => {
                    unreachable += 1;
                    said += 1;
                }
                (Expect::Unreachable | Expect::Trick, Some(_), None) => {
                    unreachable += 1;
                    wrong.push(format!("{}: {} at {:?} routes but should not", m.name, g.class, g.origin));
                }
            }
        }
        println!("{:<32} {reachable:>9} {routed:>7} {chained:>7} {unreachable:>11} {said:>9} {build_ms:>9.1}", m.name);
    }
    println!("{} maps; {} goals disagree with their answers", maps.len(), wrong.len());
    for w in &wrong {
        println!("  {w}");
    }
    if wrong.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
