//! [`NavInfo`]: what `navmesh info` prints about a built mesh, as text
//! ([`Display`](std::fmt::Display)) or JSON (`Serialize`).

use std::fmt;

use serde::Serialize;

use crate::generate::BuildTimes;
use crate::generate::exposure::ExposureStats;
use crate::graph::LinkKind;
use crate::mesh::NavMesh;

/// Link counts by travel type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LinkCounts {
    /// [`LinkKind::Walk`] links.
    pub walk: usize,
    /// [`LinkKind::Drop`] links.
    pub drop: usize,
    /// [`LinkKind::Jump`] links.
    pub jump: usize,
    /// [`LinkKind::JumpPad`] links.
    pub jumppad: usize,
    /// [`LinkKind::Teleport`] links.
    pub teleport: usize,
    /// [`LinkKind::Lift`] links.
    pub lift: usize,
    /// [`LinkKind::Swim`] links.
    pub swim: usize,
    /// [`LinkKind::Crouch`] links.
    pub crouch: usize,
}

impl LinkCounts {
    /// The count of one kind.
    pub fn get(&self, kind: LinkKind) -> usize {
        match kind {
            LinkKind::Walk => self.walk,
            LinkKind::Drop => self.drop,
            LinkKind::Jump => self.jump,
            LinkKind::JumpPad => self.jumppad,
            LinkKind::Teleport => self.teleport,
            LinkKind::Lift => self.lift,
            LinkKind::Swim => self.swim,
            LinkKind::Crouch => self.crouch,
        }
    }

    fn add(&mut self, kind: LinkKind) {
        match kind {
            LinkKind::Walk => self.walk += 1,
            LinkKind::Drop => self.drop += 1,
            LinkKind::Jump => self.jump += 1,
            LinkKind::JumpPad => self.jumppad += 1,
            LinkKind::Teleport => self.teleport += 1,
            LinkKind::Lift => self.lift += 1,
            LinkKind::Swim => self.swim += 1,
            LinkKind::Crouch => self.crouch += 1,
        }
    }
}

/// Figures about a built navmesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NavInfo {
    /// Nodes.
    pub nodes: usize,
    /// Links of every kind.
    pub links: usize,
    /// Links by kind.
    pub links_by_kind: LinkCounts,
    /// Links re-checked against movers when routed over.
    pub mover_links: usize,
    /// Areas (weakly connected components).
    pub areas: usize,
    /// Nodes in the largest area.
    pub largest_area: usize,
    /// Nodes in the largest strongly connected component of a large area:
    /// every one reaches every other. The rest are one-way pockets (below
    /// a drop with no way back, inside a teleporter) or small islands.
    pub core_nodes: usize,
    /// Seeds given.
    pub seeds: usize,
    /// Seeds that stood on a floor and became or joined a node.
    pub seeds_used: usize,
    /// Jump pads and teleporters with a link.
    pub off_mesh_links: usize,
    /// Regions of the coarse layer routes search.
    pub regions: usize,
    /// Rectangles among them (the rest are single nodes near movers).
    pub rectangles: usize,
    /// Crossings between regions (portals and links).
    pub region_edges: usize,
    /// Rows of the region distance table filled so far, and rows in all
    /// (0 without a table): the rows fill in the background after the
    /// build, and a route computes one it needs first.
    pub table_rows: (usize, usize),
    /// Build time in milliseconds: until bots can move (the exposure and
    /// the region table's rows follow in the background).
    pub build_ms: f64,
    /// Build time by phase.
    pub build_times: BuildTimes,
    /// What the exposure pass found (sight lines, spread of the figure).
    pub exposure: ExposureStats,
    /// Grid cell size in units.
    pub cell_size: f32,
    /// Floor area covered, square units (nodes times cell area).
    pub floor_area: f64,
    /// ALT landmarks.
    pub landmarks: usize,
    /// Smallest cost per unit of distance (the Euclidean heuristic's scale).
    pub heuristic_scale: f32,
    /// Approximate memory held by the mesh, bytes.
    pub memory_bytes: usize,
    /// Whether the node cap stopped the flood.
    pub capped: bool,
    /// Build warnings.
    pub warnings: Vec<String>,
}

impl NavMesh {
    /// The figures `navmesh info` prints.
    pub fn info(&self) -> NavInfo {
        let mut by_kind = LinkCounts::default();
        for l in &self.graph.links {
            by_kind.add(l.kind);
        }
        let cs = f64::from(self.cell_size());
        NavInfo {
            nodes: self.node_count(),
            links: self.link_count(),
            links_by_kind: by_kind,
            mover_links: self.graph.links.iter().filter(|l| l.near_mover).count(),
            areas: self.area_count(),
            largest_area: self.area_sizes.iter().copied().max().unwrap_or(0) as usize,
            core_nodes: self.landmark_set().core_nodes,
            seeds: self.seeds,
            seeds_used: self.seeds_used,
            off_mesh_links: self.off_mesh.len(),
            regions: self.regions.regions.len(),
            rectangles: self.regions.rectangles,
            region_edges: self.regions.edges.len(),
            table_rows: self.regions.table.filled(),
            build_ms: self.times.total_ms,
            build_times: BuildTimes { landmarks_ms: self.landmark_set().ms, exposure_ms: self.exposure.get().ms, ..self.times },
            exposure: *self.exposure_stats(),
            cell_size: self.cell_size(),
            floor_area: self.node_count() as f64 * cs * cs,
            landmarks: self.alt().count(),
            heuristic_scale: self.heuristic_scale,
            memory_bytes: self.memory_bytes(),
            capped: self.capped,
            warnings: self.warnings.clone(),
        }
    }
}

impl fmt::Display for NavInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = &self.links_by_kind;
        writeln!(f, "nodes: {}", self.nodes)?;
        writeln!(
            f,
            "links: {} (walk {}, drop {}, jump {}, jumppad {}, teleport {}, lift {}, swim {}, crouch {}; {} re-checked against movers)",
            self.links, k.walk, k.drop, k.jump, k.jumppad, k.teleport, k.lift, k.swim, k.crouch, self.mover_links
        )?;
        writeln!(
            f,
            "areas: {} (largest {} nodes; {} nodes strongly connected)",
            self.areas, self.largest_area, self.core_nodes
        )?;
        writeln!(f, "seeds: {} ({} on a floor)", self.seeds, self.seeds_used)?;
        writeln!(f, "off-mesh links: {}", self.off_mesh_links)?;
        writeln!(
            f,
            "regions: {} ({} rectangles), {} crossings; distance table rows filled: {} of {}",
            self.regions, self.rectangles, self.region_edges, self.table_rows.0, self.table_rows.1
        )?;
        let t = &self.build_times;
        writeln!(
            f,
            "build: {:.1} ms until bots can move (flood {:.1}, links {:.1}, areas {:.1}, regions {:.1}); in the background: exposure {:.1} ms; landmarks on first use {:.1} ms",
            self.build_ms, t.flood_ms, t.links_ms, t.areas_ms, t.regions_ms, t.exposure_ms, t.landmarks_ms
        )?;
        let e = &self.exposure;
        writeln!(
            f,
            "exposure: {} sight lines over {} groups of {:.0} units; min {:.2}, mean {:.2}, max {:.2}",
            e.lines, e.groups, e.group_size, e.min, e.mean, e.max
        )?;
        writeln!(
            f,
            "cell size: {} units, floor covered {:.0} square units",
            self.cell_size, self.floor_area
        )?;
        writeln!(
            f,
            "landmarks: {}, euclid scale {:.3}",
            self.landmarks, self.heuristic_scale
        )?;
        writeln!(f, "memory: {:.1} KiB", self.memory_bytes as f64 / 1024.0)?;
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}
