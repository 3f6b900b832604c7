//! Every map Quarry ships (`maps/*.map`) gets a navmesh on which every
//! spawn point routes to every other spawn point and to every item, and
//! whose ALT search finds the same costs as Dijkstra with fewer expansions.

mod common;

use common::{build, check_heuristics_and_print, maps_in, workspace};

#[test]
fn every_shipped_map_is_fully_navigable() {
    let maps = maps_in(&workspace().join("maps"));
    assert!(!maps.is_empty(), "no maps in maps/");
    for path in &maps {
        let b = build(path);
        let info = b.mesh.info();
        assert!(!info.capped, "{}: node cap reached", b.name);
        assert!(info.warnings.is_empty(), "{}: {:?}", b.name, info.warnings);
        for u in &b.reach.unreachable {
            eprintln!(
                "{}: spawn {} -> {} {}: {}",
                b.name, u.from.0, u.to_class, u.to.0, u.reason
            );
        }
        assert!(b.reach.spawn_pairs > 0, "{}: no spawn pairs", b.name);
        assert!(
            b.reach.unreachable.is_empty(),
            "{}: {} pairs do not route",
            b.name,
            b.reach.unreachable.len()
        );
        check_heuristics_and_print(&b);
        let json = serde_json::to_value(&info).expect("info serialises");
        assert_eq!(json["nodes"].as_u64(), Some(info.nodes as u64));
        assert!(b.mesh.export_svg(None).contains("<svg"));
    }
}
