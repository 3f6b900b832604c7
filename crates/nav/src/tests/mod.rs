//! In-crate tests on synthetic worlds: small maps written as `.map` text,
//! loaded with `quarry_map::load_str` (so the probes run against the real
//! collision world and its Quake trace), built and routed.

mod crouch;
mod doors;
mod exposure;
mod generation;
mod heuristics;
mod lifts;
mod routing;
mod swim;

use glam::Vec3;
use quarry_map::{LoadOptions, LoadedMap};

use crate::{Agent, BuildOptions, NavMesh, Node, NodeId, RouteOptions, SearchScratch};

/// Default textures: plain solid, and Quake 3 lava.
pub(crate) const SOLID: &str = "quarry/floor";
pub(crate) const LAVA: &str = "liquids/lava";
const TRIGGER: &str = "common/trigger";

/// An axis-aligned brush from `lo` to `hi`, cut by extra planes `(outward normal, point)`.
fn brush(lo: Vec3, hi: Vec3, cuts: &[(Vec3, Vec3)], tex: &str) -> String {
    quarry_map::source::box_brush_cut(lo, hi, cuts, tex)
}

fn v(p: [f32; 3]) -> Vec3 {
    Vec3::from_array(p)
}

/// A synthetic map under construction.
#[derive(Debug, Default, Clone)]
pub(crate) struct TestMap {
    world: Vec<String>,
    entities: Vec<String>,
}

impl TestMap {
    /// An empty map.
    pub(crate) fn new() -> TestMap {
        TestMap::default()
    }

    /// A solid box.
    pub(crate) fn solid(&mut self, lo: [f32; 3], hi: [f32; 3]) -> &mut Self {
        self.world.push(brush(v(lo), v(hi), &[], SOLID));
        self
    }

    /// A box of any texture.
    pub(crate) fn textured(&mut self, lo: [f32; 3], hi: [f32; 3], tex: &str) -> &mut Self {
        self.world.push(brush(v(lo), v(hi), &[], tex));
        self
    }

    /// A ramp inside `lo..hi` rising along +x from `lo.z` to `hi.z`.
    pub(crate) fn ramp_x(&mut self, lo: [f32; 3], hi: [f32; 3]) -> &mut Self {
        let (lo, hi) = (v(lo), v(hi));
        let n = Vec3::new(-(hi.z - lo.z), 0.0, hi.x - lo.x).normalize();
        self.world.push(brush(lo, hi, &[(n, lo)], SOLID));
        self
    }

    /// Stairs along +x from `x0`, `steps` steps of `rise` by `run`, `y0..y1` wide, on floor `z0`.
    pub(crate) fn stairs_x(
        &mut self,
        x0: f32,
        y: (f32, f32),
        z0: f32,
        steps: u32,
        rise: f32,
        run: f32,
    ) -> &mut Self {
        for i in 0..steps {
            let x = x0 + i as f32 * run;
            self.solid(
                [x, y.0, z0 - 16.0],
                [x + run, y.1, z0 + rise * (i + 1) as f32],
            );
        }
        self
    }

    /// A point entity.
    pub(crate) fn point(&mut self, class: &str, at: [f32; 3], keys: &[(&str, &str)]) -> &mut Self {
        let mut s = format!(
            "{{\n\"classname\" \"{class}\"\n\"origin\" \"{} {} {}\"\n",
            at[0], at[1], at[2]
        );
        for (k, val) in keys {
            s += &format!("\"{k}\" \"{val}\"\n");
        }
        self.entities.push(s + "}\n");
        self
    }

    /// A deathmatch spawn with its origin 32 units above the floor at `floor`.
    pub(crate) fn spawn(&mut self, floor: [f32; 3]) -> &mut Self {
        self.point(
            "info_player_deathmatch",
            [floor[0], floor[1], floor[2] + 32.0],
            &[],
        )
    }

    /// A health item 28 units above the floor at `floor`.
    pub(crate) fn item(&mut self, floor: [f32; 3]) -> &mut Self {
        self.point("item_health", [floor[0], floor[1], floor[2] + 28.0], &[])
    }

    /// A brush entity.
    pub(crate) fn brush_entity(
        &mut self,
        class: &str,
        lo: [f32; 3],
        hi: [f32; 3],
        tex: &str,
        keys: &[(&str, &str)],
    ) -> &mut Self {
        let mut s = format!("{{\n\"classname\" \"{class}\"\n");
        for (k, val) in keys {
            s += &format!("\"{k}\" \"{val}\"\n");
        }
        s += &brush(v(lo), v(hi), &[], tex);
        self.entities.push(s + "}\n");
        self
    }

    /// A jump pad volume `lo..hi` aiming at `target`.
    pub(crate) fn jump_pad(
        &mut self,
        name: &str,
        lo: [f32; 3],
        hi: [f32; 3],
        target: [f32; 3],
    ) -> &mut Self {
        self.brush_entity("trigger_push", lo, hi, TRIGGER, &[("target", name)]);
        self.point("target_position", target, &[("targetname", name)])
    }

    /// A teleporter volume `lo..hi` sending to `dest` (a player origin).
    pub(crate) fn teleporter(
        &mut self,
        name: &str,
        lo: [f32; 3],
        hi: [f32; 3],
        dest: [f32; 3],
    ) -> &mut Self {
        self.brush_entity("trigger_teleport", lo, hi, TRIGGER, &[("target", name)]);
        self.point("misc_teleporter_dest", dest, &[("targetname", name)])
    }

    /// A door filling `lo..hi` that slides up; `locked` gives it a targetname.
    pub(crate) fn door(&mut self, lo: [f32; 3], hi: [f32; 3], locked: bool) -> &mut Self {
        let keys: &[(&str, &str)] = if locked {
            &[("angle", "-1"), ("targetname", "button1")]
        } else {
            &[("angle", "-1")]
        };
        self.brush_entity("func_door", lo, hi, "quarry/door", keys)
    }

    /// The map text.
    pub(crate) fn text(&self) -> String {
        format!(
            "{{\n\"classname\" \"worldspawn\"\n{}}}\n{}",
            self.world.concat(),
            self.entities.concat()
        )
    }

    /// Loads it.
    pub(crate) fn load(&self) -> LoadedMap {
        match quarry_map::load_str(&self.text(), "test.map", &LoadOptions::default()) {
            Ok(m) => m,
            Err(e) => panic!("test map does not load: {e}"),
        }
    }

    /// Loads and builds with `cell` sized cells.
    pub(crate) fn build(&self, cell: f32) -> (LoadedMap, NavMesh) {
        let map = self.load();
        let options = BuildOptions {
            cell_size: cell,
            ..BuildOptions::default()
        };
        let mesh = match NavMesh::build_for_map(&map, map.world(), &[], &Agent::default(), &options)
        {
            Ok(m) => m,
            Err(e) => panic!("test map does not build: {e}"),
        };
        (map, mesh)
    }
}

/// A floor slab with its top at z 0 over `lo..hi` (x, y).
pub(crate) fn floor(map: &mut TestMap, lo: [f32; 2], hi: [f32; 2]) {
    map.solid([lo[0], lo[1], -16.0], [hi[0], hi[1], 0.0]);
}

/// The node nearest `p` (any, no proof).
pub(crate) fn node_near(mesh: &NavMesh, p: [f32; 3]) -> (NodeId, Node) {
    let p = v(p);
    let (i, n) = mesh
        .nodes()
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.origin.distance(p).total_cmp(&b.1.origin.distance(p)))
        .unwrap_or_else(|| panic!("empty mesh"));
    (NodeId(i as u32), *n)
}

/// Player origin standing on the floor at `p` (24 above it).
pub(crate) fn stand(p: [f32; 3]) -> Vec3 {
    Vec3::new(p[0], p[1], p[2] + 24.0)
}

/// Routes on the cells (the exact A*, every node listed) in `map`'s world.
pub(crate) fn route_cells(
    map: &LoadedMap,
    mesh: &NavMesh,
    a: Vec3,
    b: Vec3,
) -> Result<crate::Route, crate::RouteError> {
    let options = RouteOptions { coarse: false, ..RouteOptions::default() };
    mesh.route(map.world(), &mut SearchScratch::new(), a, b, &options)
}

/// Whether a straight leg of `r` (from its routed start through its
/// corners) crosses the line `x = x0` with `y` in `ys`.
pub(crate) fn crosses_x(r: &crate::Route, x0: f32, ys: std::ops::Range<f32>) -> bool {
    let mut prev = r.routed_start;
    r.corners.iter().any(|c| {
        let (a, b) = (prev, c.origin);
        prev = c.origin;
        if (a.x - x0) * (b.x - x0) > 0.0 || (a.x - b.x).abs() < 1e-3 {
            return false;
        }
        let t = (x0 - a.x) / (b.x - a.x);
        ys.contains(&(a.y + (b.y - a.y) * t))
    })
}

/// Routes with the default options in `map`'s world.
pub(crate) fn route(
    map: &LoadedMap,
    mesh: &NavMesh,
    a: Vec3,
    b: Vec3,
) -> Result<crate::Route, crate::RouteError> {
    mesh.route(
        map.world(),
        &mut SearchScratch::new(),
        a,
        b,
        &RouteOptions::default(),
    )
}
