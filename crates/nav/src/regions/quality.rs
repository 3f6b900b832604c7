//! How routes through the region layer compare with the exact cell
//! routes, on seeded random node pairs: reachability must agree, the cost
//! should stay within a few percent of the optimal grid path (it is often
//! below it: a pulled string is shorter than a grid path), and every walk
//! leg must pass the same walkability probe the cell router's string
//! pulling uses (a leg the cell mesh would refuse is counted).

use glam::Vec3;
use quarry_map::Trace;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::graph::LinkKind;
use crate::mesh::NavMesh;
use crate::route::RouteOptions;
use crate::route::astar::SearchScratch;

/// The comparison's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CoarseQuality {
    /// Pairs asked.
    pub queries: usize,
    /// Pairs both routers routed (the ratios are over these).
    pub compared: usize,
    /// Pairs one router routed and the other did not.
    pub disagreements: usize,
    /// Coarse cost over the optimal cell cost: mean.
    pub ratio_mean: f64,
    /// … 99th percentile.
    pub ratio_p99: f64,
    /// … largest.
    pub ratio_max: f64,
    /// … smallest.
    pub ratio_min: f64,
    /// Walk legs of the coarse routes.
    pub legs: usize,
    /// Walk legs that leave the mesh: some point of the leg (every 8
    /// units) is over a cell with no node within a step of the height the
    /// leg has climbed to, so the cell mesh has no way there.
    pub off_mesh_legs: usize,
    /// The cell router's own pulled routes on the same pairs: walk legs, and
    /// those that leave the mesh by the same measure (the baseline).
    pub cell_legs: usize,
    /// See `cell_legs`.
    pub cell_off_mesh_legs: usize,
    /// Walk legs the cell router's straight-sweep probe refuses (stricter:
    /// it also refuses walking over uneven ground, steps up and down).
    pub unwalkable_legs: usize,
}

impl std::fmt::Display for CoarseQuality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "coarse routes on {} pairs: cost ratio to the optimal cell route mean {:.3}, p99 {:.3}, max {:.3}, min {:.3}; {} disagreements on reachability; {} of {} walk legs leave the mesh ({} refused by the straight-sweep probe; the cell router's: {} of {} leave the mesh)",
            self.compared, self.ratio_mean, self.ratio_p99, self.ratio_max, self.ratio_min, self.disagreements, self.off_mesh_legs, self.legs, self.unwalkable_legs, self.cell_off_mesh_legs, self.cell_legs
        )
    }
}

impl NavMesh {
    /// Whether the straight leg `a` -> `b` stays over the mesh: every 8
    /// units its point lies over a cell holding a node within a step of the
    /// height the leg has reached so far, and it ends at `b`'s height.
    pub(crate) fn leg_on_mesh(&self, a: Vec3, b: Vec3) -> bool {
        let step = self.agent.step_height + 1.0;
        let n = ((b - a).truncate().length() / 8.0).ceil().max(1.0) as u32;
        let mut z = a.z;
        for i in 0..=n {
            let p = a.lerp(b, i as f32 / n as f32);
            let next = self
                .cells
                .nodes_in(self.cell_of(p))
                .iter()
                .filter_map(|&id| self.graph.nodes.get(id as usize))
                .map(|node| node.origin.z)
                .filter(|nz| (nz - z).abs() <= step)
                .min_by(|x, y| (x - z).abs().total_cmp(&(y - z).abs()));
            match next {
                Some(nz) => z = nz,
                None => return false,
            }
        }
        (z - b.z).abs() <= step
    }
}

/// Compares the two routers on `queries` node pairs (same area) drawn
/// with `seed`, in `world`.
pub fn coarse_quality(mesh: &NavMesh, world: &dyn Trace, seed: u64, queries: usize) -> CoarseQuality {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let nodes = mesh.nodes();
    let mut out = CoarseQuality { ratio_min: f64::INFINITY, ..CoarseQuality::default() };
    if nodes.len() < 2 {
        return out;
    }
    let mut scratch = SearchScratch::new();
    let coarse = RouteOptions { coarse: true, ..RouteOptions::default() };
    let exact = RouteOptions { coarse: false, string_pull: false, ..RouteOptions::default() };
    let prober = mesh.prober(world);
    let mut ratios = Vec::with_capacity(queries);
    let mut attempts = 0;
    while out.queries < queries && attempts < queries * 32 {
        attempts += 1;
        let (a, b) = (&nodes[rng.random_range(0..nodes.len())], &nodes[rng.random_range(0..nodes.len())]);
        if a.area != b.area || a.origin == b.origin {
            continue;
        }
        out.queries += 1;
        let c = mesh.route(world, &mut scratch, a.origin, b.origin, &coarse);
        let e = mesh.route(world, &mut scratch, a.origin, b.origin, &exact);
        if let Ok(pulled) = mesh.route(world, &mut scratch, a.origin, b.origin, &RouteOptions { coarse: false, ..RouteOptions::default() }) {
            let mut prev = pulled.routed_start;
            for corner in &pulled.corners {
                if corner.kind == LinkKind::Walk {
                    out.cell_legs += 1;
                    out.cell_off_mesh_legs += usize::from(!mesh.leg_on_mesh(prev, corner.origin));
                }
                prev = corner.origin;
            }
        }
        match (c, e) {
            (Ok(c), Ok(e)) => {
                out.compared += 1;
                ratios.push(f64::from(c.cost) / f64::from(e.cost.max(1.0)));
                let mut prev: Vec3 = c.routed_start;
                for corner in &c.corners {
                    if corner.kind == LinkKind::Walk {
                        out.legs += 1;
                        if prev.distance(corner.origin) > 1.0 && !prober.walkable_line(prev, corner.origin) {
                            out.unwalkable_legs += 1;
                        }
                        if !mesh.leg_on_mesh(prev, corner.origin) {
                            out.off_mesh_legs += 1;
                        }
                    }
                    prev = corner.origin;
                }
            }
            (Err(_), Err(_)) => {}
            _ => out.disagreements += 1,
        }
    }
    ratios.sort_by(f64::total_cmp);
    if !ratios.is_empty() {
        out.ratio_mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        out.ratio_p99 = ratios[((ratios.len() - 1) as f64 * 0.99).round() as usize];
        out.ratio_max = ratios[ratios.len() - 1];
        out.ratio_min = ratios[0];
    } else {
        out.ratio_min = 0.0;
    }
    out
}
