//! Exposure: how much of the map can see each node, sampled at build time,
//! so a cautious bot's routes can prefer covered ground
//! ([`RouteOptions::exposure_weight`](crate::RouteOptions::exposure_weight)).
//!
//! The nodes are grouped into coarse cells ([`GROUP_SIZE`] units on each
//! side, height included, so a catwalk and the corridor under it fall
//! apart). Each group's representative (the member nearest the group's
//! mean origin) is both a target and an observer: a group's exposure is the
//! share of the other groups' representatives within [`RANGE`] whose eye
//! ([`EYE_HEIGHT`] above the origin) sees the representative's chest
//! ([`CHEST`] above it) along a point trace through the build's world
//! (touch-open doors open, as the mesh was built). Every member takes its
//! group's figure. A group no observer is in range of has exposure 0.
//!
//! Bounded: at most [`MAX_OBSERVERS`] sight lines per group and
//! [`MAX_LINES`] for the whole mesh. Groups grow (the cell doubles) until
//! each gets at least [`MIN_OBSERVERS`] observers out of the budget; a
//! group with more observers in range than its share takes an even stride
//! through them (in group order).
//!
//! Deterministic: no clock, no RNG; groups are in sorted cell order and
//! the build's pool returns results in item order, so the figures do not
//! depend on the thread count.
//!
//! Not needed for a bot's first move (only routes with an exposure weight
//! read it), so a map's build ([`NavMesh::build_for_map`](crate::NavMesh::build_for_map))
//! leaves it to a thread of its own ([`LazyExposure`]); whoever needs it
//! first waits for that thread or measures it itself. Either way the
//! figures are the same, so routes do not depend on the timing.
//!
//! What this pass must not do: change the mesh's nodes, links or regions
//! (it only reads them), or cost anything at route time with a zero weight.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use glam::Vec3;
use quarry_map::{Contents, Trace};
use serde::Serialize;

use crate::cells::floor_i32;

/// Height of a standing player's eye above the origin, units: Quake 3's
/// `DEFAULT_VIEWHEIGHT`, the sim's default `view_height` and what the bots
/// aim from. The agent carries no view height (it describes the box), so
/// the figure is fixed here.
pub const EYE_HEIGHT: f32 = 26.0;
/// Height of the aim point above a node's origin: a standing player's
/// chest, units (the cover query aims there too).
pub(crate) const CHEST: f32 = crate::route::cover::CHEST;
/// Observers farther than this from a target do not count, units: about
/// the sight range of the bots' middle skills (1,700 to 2,200).
pub const RANGE: f32 = 2000.0;
/// Most sight lines traced for one mesh: about as many traces as the
/// flood's probes of a few thousand nodes, so the pass stays a small part
/// of the build (see the crate's figures in its commit).
pub const MAX_LINES: usize = 65536;
/// Side of the cells nodes are grouped by, units, before it grows to fit
/// the budget: neighbouring standing spots are seen or hidden together.
pub const GROUP_SIZE: f32 = 128.0;
/// Most observers a group takes (an even stride through those in range):
/// the share's standard error is then at most 1/16 (`sqrt(p (1 - p) / 64)`),
/// finer than a route needs, and a small map traces about 64 lines per
/// group, not one per pair of groups (on `q_dm1`, 17,000 instead of 65,000:
/// the pass takes about a fifth of the build, not half).
pub const MAX_OBSERVERS: usize = 64;
/// Fewest observers a group gets out of the budget: groups grow until
/// `groups * MIN_OBSERVERS <= MAX_LINES`, so the share is never coarser
/// than 1/16.
pub const MIN_OBSERVERS: usize = 16;

/// What the exposure pass found, for reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ExposureStats {
    /// Node groups (each one target and one observer).
    pub groups: usize,
    /// Side of a group's cell, units ([`GROUP_SIZE`] or a doubling of it).
    pub group_size: f32,
    /// Sight lines traced.
    pub lines: usize,
    /// Smallest exposure over the nodes.
    pub min: f32,
    /// Mean exposure over the nodes.
    pub mean: f32,
    /// Largest exposure over the nodes.
    pub max: f32,
}

/// The exposure of every node, with its figures.
#[derive(Debug, Clone, Default)]
pub(crate) struct Exposure {
    /// Per node, 0 (covered) to 1 (seen by every observer in range).
    pub(crate) nodes: Vec<f32>,
    pub(crate) stats: ExposureStats,
}

/// One group: its representative's origin and its members.
struct Group {
    origin: Vec3,
    members: Vec<u32>,
}

/// Every node's exposure, each region's mean and what the pass found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Measured {
    /// Per node, 0 (covered) to 1 (seen by every observer in range).
    pub(crate) nodes: Vec<f32>,
    /// Per region, the mean of its nodes' (the coarse router's term).
    pub(crate) regions: Vec<f32>,
    pub(crate) stats: ExposureStats,
    /// How long measuring took, ms.
    pub(crate) ms: f64,
}

/// What measuring needs: the build's world, the nodes' origins and their
/// regions.
struct Inputs {
    world: Arc<dyn Trace + Send + Sync>,
    origins: Vec<Vec3>,
    region_of: Vec<u32>,
    regions: usize,
    threads: usize,
}

/// A mesh's exposure, measured once: at the build, on a thread of its own
/// after it, or by the first caller of [`LazyExposure::get`] (which waits
/// for the thread when it has started).
#[derive(Default)]
pub(crate) struct LazyExposure {
    measured: OnceLock<Measured>,
    /// Taken by whoever measures (the world is dropped once done).
    inputs: Mutex<Option<Inputs>>,
}

impl std::fmt::Debug for LazyExposure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyExposure").field("measured", &self.measured.get().map(|m| m.stats)).finish()
    }
}

impl LazyExposure {
    /// Measured now, in `world` (borrowed for the call only).
    pub(crate) fn now(world: &(dyn Trace + Sync), origins: &[Vec3], region_of: &[u32], regions: usize, threads: usize) -> Self {
        let measured = OnceLock::new();
        let _ = measured.set(measure_all(world, origins, region_of, regions, threads));
        Self { measured, inputs: Mutex::new(None) }
    }

    /// Measured on a thread of its own, started now; [`LazyExposure::get`]
    /// before it is done waits for it (or, without a thread, measures).
    pub(crate) fn in_background(
        world: Arc<dyn Trace + Send + Sync>,
        origins: Vec<Vec3>,
        region_of: Vec<u32>,
        regions: usize,
        threads: usize,
    ) -> Arc<Self> {
        let lazy = Arc::new(Self { measured: OnceLock::new(), inputs: Mutex::new(Some(Inputs { world, origins, region_of, regions, threads })) });
        let shared = Arc::clone(&lazy);
        let spawned = std::thread::Builder::new().name("nav-exposure".into()).spawn(move || {
            // Nobody holds the mesh any more: nothing to measure for.
            if Arc::strong_count(&shared) > 1 {
                shared.get();
            }
        });
        drop(spawned);
        lazy
    }

    /// The figures, measured first if no one has yet.
    pub(crate) fn get(&self) -> &Measured {
        self.measured.get_or_init(|| {
            let inputs = self.inputs.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            match inputs {
                Some(i) => measure_all(&*i.world, &i.origins, &i.region_of, i.regions, i.threads),
                None => Measured::default(),
            }
        })
    }

    /// The figures if they are measured already.
    pub(crate) fn ready(&self) -> Option<&Measured> {
        self.measured.get()
    }
}

/// Measures every node's exposure and the regions' means, timed.
fn measure_all(world: &(dyn Trace + Sync), origins: &[Vec3], region_of: &[u32], regions: usize, threads: usize) -> Measured {
    let started = Instant::now();
    let e = measure(world, origins, threads);
    let regions = region_means(&e.nodes, region_of, regions);
    Measured { nodes: e.nodes, regions, stats: e.stats, ms: started.elapsed().as_secs_f64() * 1000.0 }
}

/// Measures every node's exposure in `world` on `threads` threads; `nodes`
/// are the nodes' origins.
pub(crate) fn measure(world: &(dyn Trace + Sync), nodes: &[Vec3], threads: usize) -> Exposure {
    if nodes.is_empty() {
        return Exposure::default();
    }
    let (groups, group_size) = group(nodes);
    let share = (MAX_LINES / groups.len().max(1)).clamp(1, MAX_OBSERVERS);
    let eyes: Vec<Vec3> = groups.iter().map(|g| g.origin + Vec3::Z * EYE_HEIGHT).collect();
    let ids: Vec<usize> = (0..groups.len()).collect();
    let per_group: Vec<(f32, usize)> = crate::generate::pool::parallel_map(
        &ids,
        threads,
        8,
        || (),
        |_, &target| {
            let Some(chest) = groups.get(target).map(|g| g.origin + Vec3::Z * CHEST) else { return (0.0, 0) };
            // Observers in range, in group order (the target's own eye is
            // left out: it is not the map seeing it).
            let in_range: Vec<usize> = eyes
                .iter()
                .enumerate()
                .filter(|&(i, e)| i != target && e.distance_squared(chest) <= RANGE * RANGE)
                .map(|(i, _)| i)
                .collect();
            if in_range.is_empty() {
                return (0.0, 0);
            }
            let take = in_range.len().min(share);
            let mut seen = 0usize;
            for k in 0..take {
                // An even stride through the observers in range.
                let Some(eye) = in_range.get(k * in_range.len() / take).and_then(|&o| eyes.get(o)) else { continue };
                if sees(world, *eye, chest) {
                    seen += 1;
                }
            }
            (seen as f32 / take as f32, take)
        },
    );
    let mut out = vec![0.0f32; nodes.len()];
    let mut lines = 0;
    for (g, &(e, traced)) in groups.iter().zip(&per_group) {
        lines += traced;
        for &n in &g.members {
            if let Some(slot) = out.get_mut(n as usize) {
                *slot = e;
            }
        }
    }
    let (min, max) = out.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &e| (lo.min(e), hi.max(e)));
    let mean = (out.iter().map(|&e| f64::from(e)).sum::<f64>() / out.len() as f64) as f32;
    Exposure {
        nodes: out,
        stats: ExposureStats { groups: groups.len(), group_size, lines, min, mean, max },
    }
}

/// Whether the eye at `eye` sees `aim` (the trace stops within a unit of
/// it, or not at all), as the cover query tests it.
#[inline]
fn sees(world: &dyn Trace, eye: Vec3, aim: Vec3) -> bool {
    let tr = world.trace(eye, aim, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
    !tr.start_solid && (tr.fraction >= 1.0 || tr.end.distance(aim) <= 1.0)
}

/// The nodes grouped by cells of [`GROUP_SIZE`] units (doubled until there
/// are at most `MAX_LINES / MIN_OBSERVERS` groups), in sorted cell order,
/// each with its representative; and the cell side used.
fn group(nodes: &[Vec3]) -> (Vec<Group>, f32) {
    let most = MAX_LINES / MIN_OBSERVERS;
    let mut size = GROUP_SIZE;
    loop {
        let key = |p: Vec3| [floor_i32(p.x / size), floor_i32(p.y / size), floor_i32(p.z / size)];
        let mut keyed: Vec<([i32; 3], u32)> = nodes.iter().zip(0u32..).map(|(n, i)| (key(*n), i)).collect();
        keyed.sort_unstable();
        let count = keyed.chunk_by(|a, b| a.0 == b.0).count();
        // Past 2^20 units a cell holds any map: stop doubling there.
        if count > most && size < 1_048_576.0 {
            size *= 2.0;
            continue;
        }
        let origin_of = |i: u32| nodes.get(i as usize).copied().unwrap_or(Vec3::ZERO);
        let groups = keyed
            .chunk_by(|a, b| a.0 == b.0)
            .map(|run| {
                let members: Vec<u32> = run.iter().map(|&(_, i)| i).collect();
                let mean = members.iter().map(|&i| origin_of(i)).sum::<Vec3>() / members.len().max(1) as f32;
                // The member nearest the mean (the first of equals, by id).
                let mut best = (f32::INFINITY, Vec3::ZERO);
                for &i in &members {
                    let d = origin_of(i).distance_squared(mean);
                    if d < best.0 {
                        best = (d, origin_of(i));
                    }
                }
                Group { origin: best.1, members }
            })
            .collect();
        return (groups, size);
    }
}

/// The mean exposure of each region's nodes (the coarse router's term);
/// `region_of` maps each node to its region ([`crate::regions::NONE`]:
/// none).
pub(crate) fn region_means(exposure: &[f32], region_of: &[u32], regions: usize) -> Vec<f32> {
    let mut sum = vec![0.0f64; regions];
    let mut count = vec![0u32; regions];
    for (&e, &r) in exposure.iter().zip(region_of) {
        if let (Some(s), Some(c)) = (sum.get_mut(r as usize), count.get_mut(r as usize)) {
            *s += f64::from(e);
            *c += 1;
        }
    }
    sum.iter().zip(&count).map(|(&s, &c)| if c == 0 { 0.0 } else { (s / f64::from(c)) as f32 }).collect()
}
