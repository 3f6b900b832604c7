//! The exposure pass on real maps: the shipped `q_dm1` and `q_ctf1` and,
//! when the shared maps are present, the large `dm3` and `oacmpctf1`.
//! Every node gets a figure in 0..=1 within the sight-line budget, the
//! figures repeat on a second build, and one line per map gives the pass's
//! time, its sight lines and the spread of the figure (run with
//! `--nocapture` to read them).

mod common;

use std::path::PathBuf;

use common::{shared_maps_dir, workspace};
use quarry_map::LoadOptions;
use quarry_nav::{Agent, BuildOptions, EXPOSURE_MAX_LINES, NavMesh, RouteOptions, SearchScratch, match_start_world};

fn maps() -> Vec<PathBuf> {
    let mut out = vec![workspace().join("maps/q_dm1.map"), workspace().join("maps/q_ctf1.map")];
    if let Some(dir) = shared_maps_dir("exposure_maps") {
        out.extend(["q1-standard/dm3.map", "q3/oacmpctf1.map"].iter().map(|m| dir.join(m)).filter(|p| p.is_file()));
    }
    out
}

#[test]
fn exposure_is_bounded_repeatable_and_reported_on_real_maps() {
    for path in maps() {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let map = quarry_map::load(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let world = match_start_world(&map);
        let build = || NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &BuildOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (mesh, again) = (build(), build());
        let s = *mesh.exposure_stats();
        assert_eq!(mesh.exposures().len(), mesh.node_count(), "{name}");
        assert!(s.lines <= EXPOSURE_MAX_LINES, "{name}: {s:?}");
        assert!(mesh.exposures().iter().all(|e| (0.0..=1.0).contains(e)), "{name}");
        assert!(s.max > s.min, "{name}: one figure everywhere: {s:?}");
        assert_eq!(
            mesh.exposures().iter().map(|e| e.to_bits()).collect::<Vec<_>>(),
            again.exposures().iter().map(|e| e.to_bits()).collect::<Vec<_>>(),
            "{name}: a second build differs"
        );
        // A cautious route between two far nodes is no shorter than the
        // plain one on the cells (the exact optimum); both printed.
        let (a, b) = (mesh.nodes()[0].origin, mesh.nodes()[mesh.node_count() / 2].origin);
        let mut scratch = SearchScratch::new();
        for coarse in [true, false] {
            let plain = RouteOptions { coarse, ..RouteOptions::default() };
            let cautious = RouteOptions { exposure_weight: 4.0, ..plain };
            if let (Ok(p), Ok(c)) = (
                mesh.route(&world, &mut scratch, a, b, &plain),
                mesh.route(&world, &mut scratch, a, b, &cautious),
            ) {
                assert!(coarse || c.cost >= p.cost - 1e-3, "{name}: {} < {}", c.cost, p.cost);
                println!(
                    "{name}: {} route {:.0} -> {:.0} units, exposure {:.2} -> {:.2}",
                    if coarse { "coarse" } else { "cell" },
                    p.cost,
                    c.cost,
                    mesh.route_exposure(&p),
                    mesh.route_exposure(&c)
                );
            }
        }
        let t = mesh.build_times();
        println!(
            "{name}: {} nodes, build {:.1} ms, then exposure {:.1} ms in the background ({:.1} on the second build); {} sight lines over {} groups of {:.0} units; exposure min {:.3} mean {:.3} max {:.3}",
            mesh.node_count(),
            t.total_ms,
            mesh.exposure_ms().unwrap_or(0.0),
            again.exposure_ms().unwrap_or(0.0),
            s.lines,
            s.groups,
            s.group_size,
            s.min,
            s.mean,
            s.max
        );
    }
}
