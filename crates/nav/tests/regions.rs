//! The region layer on every shipped and shared map: routes through it
//! agree with the cell routes on what is reachable, cost within a few
//! percent of the optimal grid path (usually less: a pulled string is
//! shorter than a grid path), and their walk legs stay over the mesh.

mod common;

use common::{maps_below, maps_in, shared_maps_dir, workspace};
use quarry_map::LoadOptions;
use quarry_nav::{Agent, BuildOptions, NavMesh, coarse_quality, match_start_world};

/// Seeded node pairs per map.
const PAIRS: usize = 200;

#[test]
fn coarse_routes_match_the_cell_routes_on_every_map() {
    let mut maps = maps_in(&workspace().join("maps"));
    if let Some(dir) = shared_maps_dir("coarse_routes_match_the_cell_routes_on_every_map") {
        maps.extend(maps_below(&dir));
    }
    assert!(!maps.is_empty());
    for path in &maps {
        let map = quarry_map::load(path, &LoadOptions::default()).expect("map loads");
        let world = match_start_world(&map);
        let mesh = NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &BuildOptions::default()).expect("mesh builds");
        let info = mesh.info();
        assert!(info.regions > 0 && info.regions * 4 < info.nodes, "{}: {info}", path.display());
        let q = coarse_quality(&mesh, &world, 3, PAIRS);
        eprintln!("{}: {} regions; {q}", path.display(), info.regions);
        // Enough pairs to mean something: pairs behind a closed gate (built
        // open, barred live) fail both ways and are not compared.
        assert!(q.compared * 10 >= PAIRS * 6, "{}: {q}", path.display());
        assert_eq!(q.disagreements, 0, "{}: reachability differs: {q}", path.display());
        // Corridors follow the region table's next hops (costed between
        // region centres and portal middles): a few percent over the
        // optimal grid path on average, with a tail of longer detours.
        assert!(q.ratio_mean <= 1.03, "{}: {q}", path.display());
        assert!(q.ratio_p99 <= 1.45, "{}: {q}", path.display());
        assert!(q.off_mesh_legs * 100 <= q.legs * 3, "{}: {q}", path.display());
        assert!(q.off_mesh_legs * 2 <= q.cell_off_mesh_legs.max(1), "{}: more legs off the mesh than the cell router's: {q}", path.display());
    }
}
